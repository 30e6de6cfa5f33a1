/* round_grad: X@GRAD = 0 (Paddle's ZeroGradFunctor; reads only Out@GRAD's shape).
 * Reads no forward tensor (phi's round grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(round_grad, ic_noattrs, 0, zero_grad_f32, zero_grad_f64)

const ic_opdef ic_op_round_grad =
    IC_ACTGRAD_DEF(round_grad, ic_noattrs, NULL, ic_actgrad_inputs_none);
