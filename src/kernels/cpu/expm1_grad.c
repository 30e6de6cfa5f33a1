/* expm1_grad: X@GRAD = Out@GRAD * Out + Out@GRAD.
 * Reads Out (phi's expm1 grad functor), float32 and float64 in the data's type. */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_FN(expm1_grad, ic_noattrs, g * u + g, g * u + g)

IC_ACTGRAD_RUN(expm1_grad, ic_noattrs, 1, expm1_grad_f32, expm1_grad_f64)

const ic_opdef ic_op_expm1_grad =
    IC_ACTGRAD_DEF(expm1_grad, ic_noattrs, NULL, ic_actgrad_inputs_out);
