/* ceil_grad: X@GRAD = 0 (Paddle's ZeroGradFunctor; reads only Out@GRAD's shape).
 * Reads no forward tensor (phi's ceil grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(ceil_grad, ic_noattrs, 0, zero_grad_f32, zero_grad_f64)

const ic_opdef ic_op_ceil_grad =
    IC_ACTGRAD_DEF(ceil_grad, ic_noattrs, NULL, ic_actgrad_inputs_none);
