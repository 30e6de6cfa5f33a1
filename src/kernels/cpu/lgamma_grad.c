/* lgamma_grad: X@GRAD = Out@GRAD * digamma(X) (Paddle's LgammaGradFunctor; digamma as
 * special_fn.h computes it: -inf at +0, +inf at -0, NaN at the negative integers). Reads X;
 * slots X, Out@GRAD -> X@GRAD as Paddle 3.3.1 writes them. */
#include "kernels/cpu/activation_grad.h"
#include "kernels/cpu/special_fn.h"

static inline float lgamma_grad_f32(float g, float u, float v, const ic_noattrs *a) {
  (void)v, (void)a;
  return g * ic_digamma_f32(u);
}
static inline double lgamma_grad_f64(double g, double u, double v, const ic_noattrs *a) {
  (void)v, (void)a;
  return g * ic_digamma_f64(u);
}

IC_ACTGRAD_RUN(lgamma_grad, ic_noattrs, 1, lgamma_grad_f32, lgamma_grad_f64)

const ic_opdef ic_op_lgamma_grad =
    IC_ACTGRAD_DEF(lgamma_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
