/* acosh_grad: X@GRAD = Out@GRAD / sqrt(X^2 - 1) (NaN for |X| < 1).
 * Reads X (phi's acosh grad functor), float32 and float64 in the data's type. */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_FN(acosh_grad, ic_noattrs, g * 1.0f / sqrtf(u * u - 1.0f), g * 1.0 / sqrt(u * u - 1.0))

IC_ACTGRAD_RUN(acosh_grad, ic_noattrs, 1, acosh_grad_f32, acosh_grad_f64)

const ic_opdef ic_op_acosh_grad =
    IC_ACTGRAD_DEF(acosh_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
