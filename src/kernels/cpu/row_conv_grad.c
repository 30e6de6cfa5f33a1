/* row_conv_grad: the gradients of row_conv (paddle/fluid/operators/row_conv_op.cc
 * RowConvGradKernel). With Out[t, d] = sum over w < context, t + w in the sequence, of
 * X[t + w, d] * Filter[w, d]:
 *   Filter@GRAD[w, d] = sum over the sequences' steps t with t + w inside of
 *                       Out@GRAD[t, d] * X[t + w, d],
 *   X@GRAD[t, d]      = sum over w < context with t - w inside the sequence of
 *                       Out@GRAD[t - w, d] * Filter[w, d].
 * X is [T, D] with one LoD level or [B, T, D] without (row_conv.c); Out@GRAD has X's dims;
 * X@GRAD has X's dims and, as Paddle 2.6.2 gives it, no LoD. Each output is optional; sums run in double and are
 * rounded once. float32 (Paddle's CPU kernel has no other) and float64. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_FILTER, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *f = ic_in(c, IN_FILTER, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  const bool lod = x->lod && x->lod->n_levels;
  if (lod ? x->ndim != 2 : x->ndim != 3) {
    return ic_kfail_in(c, IN_X, 0, "expected [steps, features] with one LoD level, or [batch, "
                                   "steps, features] without");
  }
  const int64_t D = x->dims[x->ndim - 1];
  if (f->dtype != x->dtype || f->ndim != 2 || f->dims[1] != D || f->dims[0] < 1) {
    return ic_kfail_in(c, IN_FILTER, 0, "expected %s[context >= 1, %lld]",
                       ic_dtype_name(x->dtype), (long long)D);
  }
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, as X", ic_dtype_name(x->dtype),
                       ic_dims_str(x->ndim, x->dims, d, sizeof d));
  }
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  if (dx) {
    ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
    if (ic_kset_lod(c, dx, NULL, false)) return c->err->code;
  }
  if (df) ic_tensor_set_meta(df, f->dtype, 2, f->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *f = ic_in(c, IN_FILTER, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *df = ic_out(c, 1, 0);
  const int64_t D = x->dims[x->ndim - 1], ctx = f->dims[0];
  const bool lod = x->lod && x->lod->n_levels;
  size_t ns = 0;
  const uint64_t *off = NULL;
  int64_t steps = 0;
  if (lod) {
    if (!(off = ic_kseq(c, IN_X, 0, 0, &ns))) return c->err->code;
  } else {
    ns = (size_t)x->dims[0];
    steps = x->dims[1];
  }
  const int64_t nx = ic_tensor_numel_(x), nf = ic_tensor_numel_(f);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + nf + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *af = ax + nx;
  memset(ax, 0, (size_t)(nx + nf) * sizeof(double));
  for (size_t q = 0; q < ns; q++) {
    const int64_t start = off ? (int64_t)off[q] : (int64_t)q * steps;
    const int64_t len = off ? (int64_t)(off[q + 1] - off[q]) : steps;
    for (int64_t k = 0; k < len; k++) {
      for (int64_t w = 0; w < ctx && k + w < len; w++) {
        for (int64_t d = 0; d < D; d++) {
          const double gv = get(g, (start + k) * D + d);
          ax[(start + k + w) * D + d] += gv * get(f, w * D + d);
          af[w * D + d] += gv * get(x, (start + k + w) * D + d);
        }
      }
    }
  }
  if (dx) ic_store_acc(dx, ax);
  if (df) ic_store_acc(df, af);
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Filter", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                     {"Filter@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_row_conv_grad = {
    .name = "row_conv_grad", .n_inputs = 3, .inputs = inputs, .n_outputs = 2,
    .outputs = outputs, .infer = infer, .cpu = run, .flags = IC_OP_LOD,
};
