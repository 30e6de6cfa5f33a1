/* unpool_grad: the gradient of unpool (max unpooling; phi UnpoolGradKernel,
 * Unpool2dMaxGradFunctor): each element of X went to the place Indices names in its
 * channel's output plane, so
 *   X@GRAD[n, c, i] = Out@GRAD[n, c].flat[Indices[n, c, i]].
 * Inputs X (dims only), Indices (int32 / int64, X's dims), Out (optional, unused) and
 * Out@GRAD [N, C, OH, OW] (the output plane size comes from it); unpool's attributes
 * (unpooling_type "max", data_format "NCHW"; the sizes are not needed). An index outside
 * [0, OH * OW) is refused. float32, float64. unpool3d_grad shares this code (rank 5,
 * volumes instead of planes). */
#include <string.h>

#include "kernels/kernel.h"

ic_status ic_unpool_grad_infer_nd(ic_kctx *c, int nd);
ic_status ic_unpool_grad_run(ic_kctx *c);

enum { IN_X, IN_IDX, IN_OUT, IN_DOUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  (void)attrs;
  const char *type = ic_ar_str(r, "unpooling_type", "max");
  const char *fmt = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (strcmp(type, "max") != 0) {
    return ic_ar_fail(r, "unpooling_type", "is \"%s\", expected \"max\"", type);
  }
  if (strcmp(fmt, "NCHW") != 0) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected \"NCHW\"", fmt);
  }
  return IC_OK;
}

ic_status ic_unpool_grad_infer_nd(ic_kctx *c, int nd) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_IDX, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, IN_IDX, 0, IC_DT_INT))) return st;
  if (x->ndim != nd) {
    return ic_kfail_in(c, IN_X, 0, "expected rank %d (%s)", nd, nd == 5 ? "NCDHW" : "NCHW");
  }
  if (!ic_dims_equal(idx->ndim, idx->dims, nd, x->dims)) {
    return ic_kfail_in(c, IN_IDX, 0, "expected X's dims (one index per element of X)");
  }
  if (g->dtype != x->dtype || g->ndim != nd || g->dims[0] != x->dims[0] ||
      g->dims[1] != x->dims[1]) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s [%lld, %lld, %s], the unpooling's output",
                       ic_dtype_name(x->dtype), (long long)x->dims[0], (long long)x->dims[1],
                       nd == 5 ? "OD, OH, OW" : "OH, OW");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, nd, x->dims);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) { return ic_unpool_grad_infer_nd(c, 4); }

ic_status ic_unpool_grad_run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_IDX, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t planes = x->dims[0] * x->dims[1];
  const int64_t in_sz = planes ? ic_tensor_numel_(x) / planes : 0;
  const int64_t out_sz = planes ? ic_tensor_numel_(g) / planes : 0;
  const size_t es = ic_dtype_size(x->dtype);
  for (int64_t pl = 0; pl < planes; pl++) {
    const char *src = (const char *)g->data + (size_t)(pl * out_sz) * es;
    char *dst = (char *)dx->data + (size_t)(pl * in_sz) * es;
    for (int64_t i = 0; i < in_sz; i++) {
      const int64_t at = ic_read_i64(idx, pl * in_sz + i);
      if (at < 0 || at >= out_sz) {
        return ic_kfail_in(c, IN_IDX, 0, "entry %lld is %lld, expected in [0, %lld) (the "
                           "output plane or volume)", (long long)(pl * in_sz + i), (long long)at,
                           (long long)out_sz);
      }
      memcpy(dst + (size_t)i * es, src + (size_t)at * es, es);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER},
                                    {"Indices", 0},
                                    {"Out", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
                                    {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_unpool_grad = {
    .name = "unpool_grad", .n_inputs = 4, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = 0, .parse = parse, .infer = infer, .cpu = ic_unpool_grad_run,
};
