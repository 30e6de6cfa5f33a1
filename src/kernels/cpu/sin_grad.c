/* sin_grad: X@GRAD = Out@GRAD * cos(X).
 * Reads X (phi's sin grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(sin_grad, ic_noattrs, 1, sin_grad_f32, sin_grad_f64)

const ic_opdef ic_op_sin_grad =
    IC_ACTGRAD_DEF(sin_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
