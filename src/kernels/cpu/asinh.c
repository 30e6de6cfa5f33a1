/* asinh: Out = asinh(X) (defined everywhere), float32 and float64, computed in the input's
 * precision with libm's asinhf / asinh, as Paddle's functor calls std::asinh on T
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static inline float asinh_f32(float x, const ic_noattrs *a) {
  (void)a;
  return asinhf(x);
}
static inline double asinh_f64(double x, const ic_noattrs *a) {
  (void)a;
  return asinh(x);
}

IC_ACTIVATION_RUN(asinh, ic_noattrs, asinh_f32, asinh_f64)

const ic_opdef ic_op_asinh = IC_ACTIVATION_DEF(asinh, ic_noattrs, NULL, ic_activation_infer);
