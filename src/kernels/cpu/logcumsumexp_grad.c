/* logcumsumexp_grad: as phi LogcumsumexpGradKernel, with the scan run in the opposite
 * direction (reverse flipped, exclusive, axis and flatten kept):
 *   X@GRAD = exp(scan(lp - Out) + X) - exp(scan(ln - Out) + X),
 * lp = log(Out@GRAD) where Out@GRAD > 0, ln = log(-Out@GRAD) where Out@GRAD < 0, the lowest
 * finite value elsewhere; scan is the logcumsumexp forward (logcumsumexp.c: the LogSumExp
 * step from the lowest finite value, a one-element tensor copied), all in the data's type.
 * Inputs X, Out, Out@GRAD (Out and Out@GRAD 1-D under flatten); output X@GRAD of X's dims;
 * attributes axis (default -1), flatten, exclusive, reverse; float32 and float64. */
#include <float.h>
#include <math.h>

#include "kernels/cpu/cumsum.h"

static ic_status infer(ic_kctx *c) {
  const cumsum_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const int64_t n = ic_numel(x->ndim, x->dims);
  for (size_t s = 1; s < 3; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    bool ok = t->dtype == x->dtype &&
              (a->flatten ? t->ndim == 1 && t->dims[0] == n
                          : ic_dims_equal(t->ndim, t->dims, x->ndim, x->dims));
    if (!ok) {
      char d[128];
      if (a->flatten) {
        return ic_kfail_in(c, s, 0, "expected %s[%lld] (X flattened)", ic_dtype_name(x->dtype),
                           (long long)n);
      }
      return ic_kfail_in(c, s, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
    }
  }
  if (!a->flatten && x->ndim > 0 &&
      ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'") < 0) {
    return IC_ERR_SHAPE;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* The forward's LogSumExp step (Eigen's min / max order). */
#define LSE(T, LOG1P, EXP, INF)                                                   \
  static T lse_##T(T acc, T v) {                                                  \
    T mi = v < acc ? v : acc, ma = acc < v ? v : acc;                             \
    return ma < -INF ? ma : LOG1P(EXP(mi - ma)) + ma;                             \
  }
LSE(float, log1pf, expf, FLT_MAX)
LSE(double, log1p, exp, DBL_MAX)

/* One term: t[k] = log(+-g) - out (in place in tmp), scanned backwards into tmp. */
#define LCSE_GRAD(T, LOG, EXP, LOWEST)                                                     \
  do {                                                                                     \
    const T *xp = x->data, *op = out->data, *gp = g->data;                                 \
    T *dp = dx->data, *tp = tmp->data;                                                     \
    for (int sign = 0; sign < 2; sign++) {                                                 \
      for (int64_t k = 0; k < n; k++) {                                                    \
        const T gv = sign ? -gp[k] : gp[k];                                                \
        tp[k] = (gv > 0 ? LOG(gv) : LOWEST) - op[k];                                       \
      }                                                                                    \
      if (n > 1) {                                                                         \
        for (int64_t r = 0; r < outer; r++) {                                              \
          for (int64_t i = 0; i < inner; i++) {                                            \
            T acc = LOWEST;                                                                \
            for (int64_t k = 0; k < len; k++) {                                            \
              const int64_t kk = rev ? len - 1 - k : k, at = (r * len + kk) * inner + i;   \
              const T v = tp[at];                                                          \
              if (a->exclusive) {                                                          \
                tp[at] = acc;                                                              \
                acc = lse_##T(acc, v);                                                     \
              } else {                                                                     \
                acc = lse_##T(acc, v);                                                     \
                tp[at] = acc;                                                              \
              }                                                                            \
            }                                                                              \
          }                                                                                \
        }                                                                                  \
      }                                                                                    \
      for (int64_t k = 0; k < n; k++) {                                                    \
        const T e = EXP(tp[k] + xp[k]);                                                    \
        dp[k] = sign ? dp[k] - e : e;                                                      \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const cumsum_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *out = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t n = ic_numel(x->ndim, x->dims);
  int64_t outer = 1, len = n, inner = 1;
  if (n == 0) return IC_OK;
  if (!a->flatten && x->ndim > 0) {
    const int axis = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
    outer = ic_numel(axis, x->dims);
    len = x->dims[axis];
    inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  }
  const bool rev = !a->reverse;
  ic_buffer *tmp = ic_kscratch(c, (size_t)n * ic_dtype_size(x->dtype));
  if (!tmp) return c->err->code;
  if (x->dtype == IC_FP32) LCSE_GRAD(float, logf, expf, -FLT_MAX);
  else LCSE_GRAD(double, log, exp, -DBL_MAX);
  ic_buffer_release(tmp);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_logcumsumexp_grad = {
    .name = "logcumsumexp_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(cumsum_attrs), .parse = ic_cumsum_parse,
    .infer = infer, .cpu = run,
};
