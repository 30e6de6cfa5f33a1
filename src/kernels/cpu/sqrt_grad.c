/* sqrt_grad: X@GRAD = 0.5 * Out@GRAD / Out.
 * Reads Out (phi's sqrt grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(sqrt_grad, ic_noattrs, 1, sqrt_grad_f32, sqrt_grad_f64)

const ic_opdef ic_op_sqrt_grad =
    IC_ACTGRAD_DEF(sqrt_grad, ic_noattrs, NULL, ic_actgrad_inputs_out);
