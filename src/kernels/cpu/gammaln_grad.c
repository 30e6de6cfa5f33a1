/* gammaln_grad: x@GRAD = out@GRAD * digamma(x), with the digamma of Paddle's gammaln grad
 * (paddle/phi/kernels/impl/gammaln_grad_kernel_impl.h) in x's precision: below 1e-6 the
 * series -gamma - 1/x + (pi^2/6) x; otherwise the recurrence psi(x) = psi(x + 1) - 1/x up
 * to 8.5 and the asymptotic series there; reflection psi(1 - x) - pi / tan(pi frac(x)) for
 * negative x; -inf at +0, +inf at -0, NaN at the negative integers. float32 and float64.
 * Slots out@GRAD, x -> x@GRAD as Paddle 3.3.1 writes them. */
#include <math.h>

#include "kernels/kernel.h"

#define GG_DIGAMMA(T, S)                                                                   \
  static T pos_##T(T x) {                                                                  \
    if (x <= (T)0.000001) return -(T)0.57721566490153286060 - (T)1 / x +                   \
                                 (T)1.6449340668482264365 * x;                             \
    T v = (T)0, x2 = x;                                                                    \
    while (x2 < (T)8.5) {                                                                  \
      v = v - (T)1 / x2;                                                                   \
      x2 = x2 + (T)1;                                                                      \
    }                                                                                      \
    T r = (T)1 / x2;                                                                       \
    v = v + log##S(x2) - (T)0.5 * r;                                                       \
    r = r * r;                                                                             \
    return v - r * ((T)1 / (T)12 -                                                         \
                    r * ((T)1 / (T)120 -                                                   \
                         r * ((T)1 / (T)252 - r * ((T)1 / (T)240 - r * ((T)1 / (T)132)))));  \
  }                                                                                        \
  static T digamma_##T(T x) {                                                              \
    const T pi = (T)3.14159265358979323846;                                                \
    if (x == (T)0) return signbit(x) ? (T)INFINITY : -(T)INFINITY;                         \
    if (x < (T)0) {                                                                        \
      if (x == trunc##S(x)) return (T)NAN;                                                 \
      T ip;                                                                                \
      T frac = modf##S(x, &ip);                                                            \
      return pos_##T((T)1 - x) - pi / tan##S(pi * frac);                                   \
    }                                                                                      \
    return pos_##T(x);                                                                     \
  }
GG_DIGAMMA(float, f)
GG_DIGAMMA(double, )

static ic_status infer(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0), *x = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_FLOAT);
  if (st) return st;
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    return ic_kfail_in(c, 0, 0, "expected x's dtype and dims");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0), *x = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) {
    const float *gp = g->data, *xp = x->data;
    float *o = dx->data;
    for (int64_t i = 0; i < n; i++) o[i] = gp[i] * digamma_float(xp[i]);
  } else {
    const double *gp = g->data, *xp = x->data;
    double *o = dx->data;
    for (int64_t i = 0; i < n; i++) o[i] = gp[i] * digamma_double(xp[i]);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"out@GRAD", 0}, {"x", 0}};
static const ic_slotdef outputs[] = {{"x@GRAD", 0}};

const ic_opdef ic_op_gammaln_grad = {
    .name = "gammaln_grad", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
