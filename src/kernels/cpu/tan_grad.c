/* tan_grad: X@GRAD = Out@GRAD / cos(X)^2.
 * Reads X (phi's tan grad functor), float32 and float64 in the data's type. */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_FN(tan_grad, ic_noattrs, g / (cosf(u) * cosf(u)), g / (cos(u) * cos(u)))

IC_ACTGRAD_RUN(tan_grad, ic_noattrs, 1, tan_grad_f32, tan_grad_f64)

const ic_opdef ic_op_tan_grad =
    IC_ACTGRAD_DEF(tan_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
