/* asinh_grad: X@GRAD = Out@GRAD / sqrt(X^2 + 1).
 * Reads X (phi's asinh grad functor), float32 and float64 in the data's type. */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_FN(asinh_grad, ic_noattrs, g * 1.0f / sqrtf(u * u + 1.0f), g * 1.0 / sqrt(u * u + 1.0))

IC_ACTGRAD_RUN(asinh_grad, ic_noattrs, 1, asinh_grad_f32, asinh_grad_f64)

const ic_opdef ic_op_asinh_grad =
    IC_ACTGRAD_DEF(asinh_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
