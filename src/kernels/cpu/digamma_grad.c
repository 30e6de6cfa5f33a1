/* digamma_grad: X@GRAD = Out@GRAD * trigamma(X), trigamma = psi^(1) as Eigen's
 * numext::polygamma(1, x) computes it (Paddle's DigammaGradFunctor; special_fn.h): inf at the
 * poles 0, -1, -2, ... and at -inf, NaN at +inf. Reads X; slots X, Out@GRAD -> X@GRAD as
 * Paddle 3.3.1 writes them. */
#include "kernels/cpu/activation_grad.h"
#include "kernels/cpu/special_fn.h"

static inline float digamma_grad_f32(float g, float u, float v, const ic_noattrs *a) {
  (void)v, (void)a;
  return g * ic_trigamma_f32(u);
}
static inline double digamma_grad_f64(double g, double u, double v, const ic_noattrs *a) {
  (void)v, (void)a;
  return g * ic_trigamma_f64(u);
}

IC_ACTGRAD_RUN(digamma_grad, ic_noattrs, 1, digamma_grad_f32, digamma_grad_f64)

const ic_opdef ic_op_digamma_grad =
    IC_ACTGRAD_DEF(digamma_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
