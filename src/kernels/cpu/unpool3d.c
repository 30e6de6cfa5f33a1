/* unpool3d: 3-D max unpooling, the inverse of max_pool3d_with_index
 * (paddle/phi/kernels/cpu/unpool_kernel.cc Unpool3dKernel, Unpool3dInferMeta).
 *
 * X and Indices are [N, C, D, H, W] (Indices int32 or int64, as Mask of
 * max_pool3d_with_index gives it: the flat (d * Ho + h) * Wo + w in the output volume). Out
 * is [N, C, output_size[0..2]], zero except Out[n, c].flat[Indices[n, c, i]] = X[n, c, i];
 * later writes to the same place win. Without output_size (older programs) the size is
 * (D - 1) * stride - 2 * padding + ksize per axis. Only data_format "NCDHW" exists in Paddle;
 * an index outside [0, output volume) is refused (Paddle checks only the upper bound). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct unpool3d_attrs {
  int64_t k[3], s[3], p[3], osize[3];
  bool has_osize;
} unpool3d_attrs;

static const char *const k_axis[3] = {"depth", "height", "width"};

static ic_status triple(ic_attr_reader *r, const char *name, int64_t dflt, int64_t *out,
                        bool *present) {
  const int64_t *v = NULL;
  size_t n = 0;
  bool got = ic_ar_ints(r, name, false, &v, &n);
  if (present) *present = got && n;
  if (!got || !n) {
    out[0] = out[1] = out[2] = dflt;
    return r->st;
  }
  if (n != 3) return ic_ar_fail(r, name, "has %zu values, expected 3 (depth, height, width)", n);
  memcpy(out, v, 3 * sizeof *v);
  return IC_OK;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  unpool3d_attrs *a = attrs;
  const char *type = ic_ar_str(r, "unpooling_type", "max");
  const char *fmt = ic_ar_str(r, "data_format", "NCDHW");
  if (r->st) return r->st;
  if (strcmp(type, "max") != 0) {
    return ic_ar_fail(r, "unpooling_type", "is \"%s\", expected \"max\"", type);
  }
  if (strcmp(fmt, "NCDHW") != 0) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected \"NCDHW\"", fmt);
  }
  if (triple(r, "ksize", 0, a->k, NULL) || triple(r, "strides", 1, a->s, NULL) ||
      triple(r, "paddings", 0, a->p, NULL) ||
      triple(r, "output_size", 0, a->osize, &a->has_osize)) {
    return r->st;
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const unpool3d_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT))) return st;
  if (x->ndim != 5) return ic_kfail_in(c, 0, 0, "expected rank 5 (NCDHW)");
  bool same = idx->ndim == 5;
  for (int i = 0; same && i < 5; i++) same = idx->dims[i] == x->dims[i];
  if (!same) return ic_kfail_in(c, 1, 0, "expected X's dims (one index per element of X)");
  int64_t o[3];
  for (int i = 0; i < 3; i++) {
    o[i] = a->has_osize ? a->osize[i] : (x->dims[2 + i] - 1) * a->s[i] - 2 * a->p[i] + a->k[i];
    if (o[i] < 0 || (o[i] == 0 && x->dims[2 + i] > 0)) {
      return ic_kfail_in(c, 0, 0, "gives an output %s of %lld (attribute '%s'), expected > 0",
                         k_axis[i], (long long)o[i],
                         a->has_osize ? "output_size" : "ksize/strides/paddings");
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 5,
                     (int64_t[]){x->dims[0], x->dims[1], o[0], o[1], o[2]});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t planes = x->dims[0] * x->dims[1];
  const int64_t in_sz = x->dims[2] * x->dims[3] * x->dims[4];
  const int64_t out_sz = out->dims[2] * out->dims[3] * out->dims[4];
  const size_t es = ic_dtype_size(x->dtype);
  memset(out->data, 0, (size_t)(planes * out_sz) * es);
  for (int64_t pl = 0; pl < planes; pl++) {
    const char *src = (const char *)x->data + (size_t)(pl * in_sz) * es;
    char *dst = (char *)out->data + (size_t)(pl * out_sz) * es;
    for (int64_t i = 0; i < in_sz; i++) {
      const int64_t at = ic_read_i64(idx, pl * in_sz + i);
      if (at < 0 || at >= out_sz) {
        return ic_kfail_in(c, 1, 0, "entry %lld is %lld, expected in [0, %lld) (output depth x "
                           "height x width)", (long long)(pl * in_sz + i), (long long)at,
                           (long long)out_sz);
      }
      memcpy(dst + (size_t)at * es, src + (size_t)i * es, es);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Indices", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_unpool3d = {
    .name = "unpool3d",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(unpool3d_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
