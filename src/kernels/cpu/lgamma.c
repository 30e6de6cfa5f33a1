/* lgamma: Out = log |Gamma(X)|, float32 and float64 through libm's lgammaf / lgamma as Paddle's
 * LgammaFunctor calls std::lgamma (paddle/phi/kernels/impl/lgamma_kernel_impl.h): +inf at the
 * poles 0, -1, -2, ... and at +-inf, NaN for NaN. Through the reentrant lgammaf_r / lgamma_r
 * (the same values), so that the threads of the element loop do not all write libm's global
 * signgam (CMakeLists.txt compiles this file with _DEFAULT_SOURCE for them). */
#include "kernels/cpu/activation.h"

static inline float lgamma_f32(float x, const ic_noattrs *a) {
  (void)a;
  int sign;
  return lgammaf_r(x, &sign);
}
static inline double lgamma_f64(double x, const ic_noattrs *a) {
  (void)a;
  int sign;
  return lgamma_r(x, &sign);
}

IC_ACTIVATION_RUN(lgamma, ic_noattrs, lgamma_f32, lgamma_f64)

const ic_opdef ic_op_lgamma = IC_ACTIVATION_DEF(lgamma, ic_noattrs, NULL, ic_activation_infer);
