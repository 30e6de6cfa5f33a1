/* acosh: Out = acosh(X) (NaN below 1), float32 and float64, computed in the input's
 * precision with libm's acoshf / acosh, as Paddle's functor calls std::acosh on T
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static inline float acosh_f32(float x, const ic_noattrs *a) {
  (void)a;
  return acoshf(x);
}
static inline double acosh_f64(double x, const ic_noattrs *a) {
  (void)a;
  return acosh(x);
}

IC_ACTIVATION_RUN(acosh, ic_noattrs, acosh_f32, acosh_f64)

const ic_opdef ic_op_acosh = IC_ACTIVATION_DEF(acosh, ic_noattrs, NULL, ic_activation_infer);
