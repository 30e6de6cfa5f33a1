/* atanh: Out = atanh(X) (NaN outside [-1, 1], +-inf at +-1), float32 and float64, computed in the input's
 * precision with libm's atanhf / atanh, as Paddle's functor calls std::atanh on T
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static inline float atanh_f32(float x, const ic_noattrs *a) {
  (void)a;
  return atanhf(x);
}
static inline double atanh_f64(double x, const ic_noattrs *a) {
  (void)a;
  return atanh(x);
}

IC_ACTIVATION_RUN(atanh, ic_noattrs, atanh_f32, atanh_f64)

const ic_opdef ic_op_atanh = IC_ACTIVATION_DEF(atanh, ic_noattrs, NULL, ic_activation_infer);
