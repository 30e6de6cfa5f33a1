/* abs_grad: X@GRAD = Out@GRAD * sign(X), 0 at X = 0 (float32 and float64).
 * Reads X (phi's abs grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(abs_grad, ic_noattrs, 1, abs_grad_f32, abs_grad_f64)

const ic_opdef ic_op_abs_grad =
    IC_ACTGRAD_DEF(abs_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
