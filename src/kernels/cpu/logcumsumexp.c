/* logcumsumexp: Out = log(running sum of exp(X)) along `axis` (default -1); `flatten` scans
 * X read as 1-D and gives a 1-D Out; `exclusive` leaves the element itself out; `reverse` runs
 * from the end. Each step is Paddle's LogSumExp reducer (paddle/phi/kernels/cpu/cum_kernel.cc):
 * acc, v -> max + log1p(exp(min - max)), or max itself when max is -inf; the scan starts from
 * the lowest finite value, so an exclusive scan's first element is -FLT_MAX (-DBL_MAX). A
 * one-element X is copied. float32, float64. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/cumsum.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  const cumsum_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (a->flatten) {
    int64_t n = ic_numel(x->ndim, x->dims);
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 1, &n);
    return IC_OK;
  }
  if (x->ndim > 0 && ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'") < 0) {
    return IC_ERR_SHAPE;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* Eigen's scalar_min_op / scalar_max_op (std::min / std::max order). */
#define LSE(T, LOG1P, EXP, INF)                                                   \
  static T lse_##T(T acc, T v) {                                                  \
    T mi = v < acc ? v : acc, ma = acc < v ? v : acc;                             \
    return ma < -INF ? ma : LOG1P(EXP(mi - ma)) + ma;                             \
  }
LSE(float, log1pf, expf, FLT_MAX)
LSE(double, log1p, exp, DBL_MAX)

#define SCAN(T, LOWEST)                                                                 \
  do {                                                                                  \
    const T *xp = x->data;                                                              \
    T *op = o->data;                                                                    \
    for (int64_t r = 0; r < outer; r++) {                                               \
      for (int64_t i = 0; i < inner; i++) {                                             \
        T acc = LOWEST;                                                                 \
        for (int64_t k = 0; k < len; k++) {                                             \
          int64_t kk = a->reverse ? len - 1 - k : k;                                    \
          int64_t at = (r * len + kk) * inner + i;                                      \
          if (a->exclusive) {                                                           \
            op[at] = acc;                                                               \
            acc = lse_##T(acc, xp[at]);                                                 \
          } else {                                                                      \
            acc = lse_##T(acc, xp[at]);                                                 \
            op[at] = acc;                                                               \
          }                                                                             \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
  } while (0)

static ic_status run(ic_kctx *c) {
  const cumsum_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims), outer = 1, len = n, inner = 1;
  if (n == 0) return IC_OK;
  if (n == 1) {
    memcpy(o->data, x->data, ic_dtype_size(x->dtype));
    return IC_OK;
  }
  if (!a->flatten && x->ndim > 0) {
    int axis = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
    outer = ic_numel(axis, x->dims);
    len = x->dims[axis];
    inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  }
  if (x->dtype == IC_FP32) SCAN(float, -FLT_MAX);
  else SCAN(double, -DBL_MAX);
  return IC_OK;
}

const ic_opdef ic_op_logcumsumexp = {
    .name = "logcumsumexp", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(cumsum_attrs), .parse = ic_cumsum_parse,
    .infer = infer, .cpu = run,
};
