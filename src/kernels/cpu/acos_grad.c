/* acos_grad: X@GRAD = -Out@GRAD / sqrt(1 - X^2) (NaN for |X| > 1).
 * Reads X (phi's acos grad functor), float32 and float64 in the data's type. */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_FN(acos_grad, ic_noattrs, -g * 1.0f / sqrtf(1.0f - u * u), -g * 1.0 / sqrt(1.0 - u * u))

IC_ACTGRAD_RUN(acos_grad, ic_noattrs, 1, acos_grad_f32, acos_grad_f64)

const ic_opdef ic_op_acos_grad =
    IC_ACTGRAD_DEF(acos_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
