/* log_grad: X@GRAD = Out@GRAD * (1 / X).
 * Reads X (phi's log grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(log_grad, ic_noattrs, 1, log_grad_f32, log_grad_f64)

const ic_opdef ic_op_log_grad =
    IC_ACTGRAD_DEF(log_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
