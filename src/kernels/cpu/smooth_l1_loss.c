/* smooth_l1_loss (fluid's, SSD's localization loss; paddle/fluid/operators/
 * smooth_l1_loss_op.h): X and Y [N, ...] alike, with sigma2 = sigma * sigma,
 *   Diff = (X - Y) * InsideWeight,
 *   e = 0.5 * sigma2 * d^2 where |d| < 1 / sigma2, else |d| - 0.5 / sigma2,
 *   Out [N, 1] = the sum over each row of e * OutsideWeight;
 * the weights apply only when both are given (Paddle's rule). Each element's loss is
 * evaluated in double and rounded to X's dtype, as Paddle's functor does (its 1.0 and 0.5
 * are doubles); the row sums in order. float32 or float64. */
#include <math.h>

#include "kernels/kernel.h"

enum { IN_X, IN_Y, IN_INW, IN_OUTW };
enum { OUT_DIFF, OUT_OUT };

typedef struct sl1_attrs {
  double sigma;
} sl1_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((sl1_attrs *)attrs)->sigma = (float)ic_ar_float(r, "sigma", 1.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 [samples, ...]");
  for (size_t s = IN_Y; s <= IN_OUTW; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t && (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, x->ndim, x->dims))) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
    }
  }
  ic_tensor *diff = ic_out(c, OUT_DIFF, 0);
  if (diff) ic_tensor_set_meta(diff, x->dtype, x->ndim, x->dims);
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, 2, (int64_t[]){x->dims[0], 1});
  return IC_OK;
}

#define DEFINE_SL1(T, SUF)                                                                    \
  static void sl1_##SUF(const T *x, const T *y, const T *iw, const T *ow, T *diff, T *out,     \
                        int64_t rows, int64_t cols, T sigma2) {                                \
    for (int64_t r = 0; r < rows; r++) {                                                      \
      T sum = 0;                                                                              \
      for (int64_t j = 0; j < cols; j++) {                                                    \
        const int64_t k = r * cols + j;                                                       \
        T d = x[k] - y[k];                                                                    \
        if (iw && ow) d = d * iw[k];                                                          \
        if (diff) diff[k] = d;                                                                \
        const T ad = d < 0 ? -d : d;                                                          \
        T e = (double)ad < 1.0 / (double)sigma2 ? (T)(0.5 * (double)d * (double)d * sigma2)   \
                                                : (T)((double)ad - 0.5 / (double)sigma2);     \
        if (iw && ow) e = e * ow[k];                                                          \
        sum += e;                                                                             \
      }                                                                                       \
      out[r] = sum;                                                                           \
    }                                                                                         \
  }
DEFINE_SL1(float, f32)
DEFINE_SL1(double, f64)

static ic_status run(ic_kctx *c) {
  const sl1_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  const ic_tensor *iw = ic_in(c, IN_INW, 0), *ow = ic_in(c, IN_OUTW, 0);
  ic_tensor *diff = ic_out(c, OUT_DIFF, 0), *out = ic_out(c, OUT_OUT, 0);
  const int64_t rows = x->dims[0], n = ic_tensor_numel_(x), cols = rows ? n / rows : 0;
  if (x->dtype == IC_FP64) {
    const double s = a->sigma;
    sl1_f64(x->data, y->data, iw ? iw->data : NULL, ow ? ow->data : NULL,
            diff ? diff->data : NULL, out->data, rows, cols, s * s);
  } else {
    const float s = (float)a->sigma;
    sl1_f32(x->data, y->data, iw ? iw->data : NULL, ow ? ow->data : NULL,
            diff ? diff->data : NULL, out->data, rows, cols, s * s);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"Y", 0},
                                    {"InsideWeight", IC_SLOT_OPTIONAL},
                                    {"OutsideWeight", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Diff", IC_SLOT_OPTIONAL}, {"Out", 0}};

const ic_opdef ic_op_smooth_l1_loss = {
    .name = "smooth_l1_loss",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(sl1_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
