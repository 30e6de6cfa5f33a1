/* log_softmax: Out = (X - max) - log(sum(exp(X - max))) along `axis` (default -1; phi
 * LogSoftmaxKernel, cpu/log_softmax_kernel.cc), float32 or float64.
 *
 * As in Paddle, the shifted logits X - max are clipped from below at -64 before anything else,
 * so no output is below -64 - log(n) (a -inf logit gives that, not -inf); NaN anywhere along
 * the axis makes that whole slice NaN, and an infinite max gives NaN (inf - inf). A rank-0 X
 * gives 0. The shifted logits are taken in X's dtype (exact, as Paddle's), the sum of their
 * exponentials and its log in double, and each output is rounded once. The attribute
 * (axis, checked against X's rank) is softmax's (softmax.h). */
#include <math.h>

#include "kernels/cpu/softmax.h"
#include "kernels/kernel.h"

/* [outer, n, inner]: per (outer, inner) column, the max along n (NaN taking over), then the
 * clipped shifted logits d, then d - log(sum(exp(d))). */
#define LOG_SOFTMAX_IMPL(NAME, T)                                                       \
  static void NAME(const T *x, T *y, int64_t outer, int64_t n, int64_t inner) {         \
    const T lo = (T)-64;                                                                \
    for (int64_t o = 0; o < outer; o++, x += n * inner, y += n * inner) {               \
      for (int64_t j = 0; j < inner; j++) {                                             \
        T m = x[j];                                                                     \
        for (int64_t i = 1; i < n; i++) {                                               \
          T v = x[i * inner + j];                                                       \
          if (v > m || isnan(v)) m = v;                                                 \
        }                                                                               \
        double s = 0;                                                                   \
        for (int64_t i = 0; i < n; i++) {                                               \
          T d = (T)(x[i * inner + j] - m);                                              \
          d = d < lo ? lo : d;                                                          \
          y[i * inner + j] = d;                                                         \
          s += exp((double)d);                                                          \
        }                                                                               \
        const double ls = log(s);                                                       \
        for (int64_t i = 0; i < n; i++) {                                               \
          y[i * inner + j] = (T)((double)y[i * inner + j] - ls);                        \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
  }

LOG_SOFTMAX_IMPL(log_softmax_f32, float)
LOG_SOFTMAX_IMPL(log_softmax_f64, double)

static ic_status run(ic_kctx *c) {
  const softmax_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  if (ic_numel(x->ndim, x->dims) == 0) return IC_OK;
  if (x->ndim == 0) {
    if (x->dtype == IC_FP32) *(float *)y->data = 0.0f;
    else *(double *)y->data = 0.0;
    return IC_OK;
  }
  int axis = ic_kaxis(c, a->axis, x->ndim, "axis");
  if (axis < 0) return c->err->code;
  int64_t outer = 1, inner = 1, n = x->dims[axis];
  for (int i = 0; i < axis; i++) outer *= x->dims[i];
  for (int i = axis + 1; i < x->ndim; i++) inner *= x->dims[i];
  if (x->dtype == IC_FP32) log_softmax_f32(x->data, y->data, outer, n, inner);
  else log_softmax_f64(x->data, y->data, outer, n, inner);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_log_softmax = {
    .name = "log_softmax",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(softmax_attrs), .parse = ic_softmax_parse,
    .infer = ic_softmax_infer, .cpu = run,
};
