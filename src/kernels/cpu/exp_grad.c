/* exp_grad: X@GRAD = Out@GRAD * Out.
 * Reads Out (phi's exp grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(exp_grad, ic_noattrs, 1, exp_grad_f32, exp_grad_f64)

const ic_opdef ic_op_exp_grad =
    IC_ACTGRAD_DEF(exp_grad, ic_noattrs, NULL, ic_actgrad_inputs_out);
