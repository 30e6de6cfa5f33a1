/* log1p_grad: X@GRAD = Out@GRAD * (1 / (X + 1)).
 * Reads X (phi's log1p grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(log1p_grad, ic_noattrs, 1, log1p_grad_f32, log1p_grad_f64)

const ic_opdef ic_op_log1p_grad =
    IC_ACTGRAD_DEF(log1p_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
