/* atanh_grad: X@GRAD = Out@GRAD / (1 - X^2).
 * Reads X (phi's atanh grad functor), float32 and float64 in the data's type. */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_FN(atanh_grad, ic_noattrs, g * 1.0f / (1.0f - u * u), g * 1.0 / (1.0 - u * u))

IC_ACTGRAD_RUN(atanh_grad, ic_noattrs, 1, atanh_grad_f32, atanh_grad_f64)

const ic_opdef ic_op_atanh_grad =
    IC_ACTGRAD_DEF(atanh_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
