/* smooth_l1_loss_grad: from the forward's Diff d (rows [N, cols]) and Out@GRAD g [N, 1],
 * with sigma2 = sigma * sigma,
 *   d' = sigma2 * d where |d| < 1 / sigma2, else sign(d),
 *   X@GRAD = g * w * d',  Y@GRAD = -X@GRAD,
 * w = InsideWeight * OutsideWeight when both are given, else 1 (Paddle's
 * SmoothL1LossGradKernel, in the dtype's arithmetic). Either output may be absent. */
#include "kernels/kernel.h"

enum { IN_INW, IN_OUTW, IN_DIFF, IN_DOUT };

typedef struct sl1_attrs {
  double sigma;
} sl1_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((sl1_attrs *)attrs)->sigma = (float)ic_ar_float(r, "sigma", 1.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *d = ic_in(c, IN_DIFF, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ic_kcheck_dtype(c, IN_DIFF, 0, IC_DT_FLOAT)) return c->err->code;
  if (d->ndim < 2) return ic_kfail_in(c, IN_DIFF, 0, "expected rank >= 2 [samples, ...]");
  if (g->dtype != d->dtype || ic_tensor_numel_(g) != d->dims[0]) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s[%lld, 1] (one gradient per sample)",
                       ic_dtype_name(d->dtype), (long long)d->dims[0]);
  }
  for (size_t s = IN_INW; s <= IN_OUTW; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t && (t->dtype != d->dtype || !ic_dims_equal(t->ndim, t->dims, d->ndim, d->dims))) {
      char b[128];
      return ic_kfail_in(c, s, 0, "expected %s like Diff", ic_tensor_describe(d, b, sizeof b));
    }
  }
  for (int k = 0; k < 2; k++) {
    ic_tensor *o = ic_out(c, k, 0);
    if (o) ic_tensor_set_meta(o, d->dtype, d->ndim, d->dims);
  }
  return IC_OK;
}

#define DEFINE_SL1G(T, SUF)                                                                   \
  static void sl1g_##SUF(const T *d, const T *g, const T *iw, const T *ow, T *dx, T *dy,       \
                         int64_t rows, int64_t cols, T sigma2) {                               \
    for (int64_t r = 0; r < rows; r++) {                                                      \
      for (int64_t j = 0; j < cols; j++) {                                                    \
        const int64_t k = r * cols + j;                                                       \
        const T v = d[k], av = v < 0 ? -v : v;                                                \
        const T dd = (double)av < 1.0 / (double)sigma2 ? sigma2 * v                           \
                                                       : (T)((0 < v) - (v < 0));              \
        const T w = iw && ow ? iw[k] * ow[k] : (T)1;                                          \
        const T grad = g[r] * w * dd;                                                         \
        if (dx) dx[k] = grad;                                                                 \
        if (dy) dy[k] = -1 * grad;                                                            \
      }                                                                                       \
    }                                                                                         \
  }
DEFINE_SL1G(float, f32)
DEFINE_SL1G(double, f64)

static ic_status run(ic_kctx *c) {
  const sl1_attrs *a = c->attrs;
  const ic_tensor *d = ic_in(c, IN_DIFF, 0), *g = ic_in(c, IN_DOUT, 0);
  const ic_tensor *iw = ic_in(c, IN_INW, 0), *ow = ic_in(c, IN_OUTW, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  const int64_t rows = d->dims[0], n = ic_tensor_numel_(d), cols = rows ? n / rows : 0;
  if (d->dtype == IC_FP64) {
    const double s = a->sigma;
    sl1g_f64(d->data, g->data, iw ? iw->data : NULL, ow ? ow->data : NULL,
             dx ? dx->data : NULL, dy ? dy->data : NULL, rows, cols, s * s);
  } else {
    const float s = (float)a->sigma;
    sl1g_f32(d->data, g->data, iw ? iw->data : NULL, ow ? ow->data : NULL,
             dx ? dx->data : NULL, dy ? dy->data : NULL, rows, cols, s * s);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"InsideWeight", IC_SLOT_OPTIONAL},
                                    {"OutsideWeight", IC_SLOT_OPTIONAL},
                                    {"Diff", 0},
                                    {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}, {"Y@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_smooth_l1_loss_grad = {
    .name = "smooth_l1_loss_grad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(sl1_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
