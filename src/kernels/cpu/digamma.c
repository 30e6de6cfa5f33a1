/* digamma: Out = psi(X) = d/dx log Gamma(X), float32 and float64 in their precision, as
 * Paddle's DigammaFunctor computes it through Eigen (special_fn.h says how): -inf at +0, +inf
 * at -0, NaN at the negative integers and at -inf, +inf at +inf. */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/special_fn.h"

static inline float digamma_f32(float x, const ic_noattrs *a) {
  (void)a;
  return ic_digamma_f32(x);
}
static inline double digamma_f64(double x, const ic_noattrs *a) {
  (void)a;
  return ic_digamma_f64(x);
}

IC_ACTIVATION_RUN(digamma, ic_noattrs, digamma_f32, digamma_f64)

const ic_opdef ic_op_digamma = IC_ACTIVATION_DEF(digamma, ic_noattrs, NULL, ic_activation_infer);
