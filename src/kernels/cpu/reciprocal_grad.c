/* reciprocal_grad: X@GRAD = -Out@GRAD * Out^2.
 * Reads Out (phi's reciprocal grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(reciprocal_grad, ic_noattrs, 1, reciprocal_grad_f32, reciprocal_grad_f64)

const ic_opdef ic_op_reciprocal_grad =
    IC_ACTGRAD_DEF(reciprocal_grad, ic_noattrs, NULL, ic_actgrad_inputs_out);
