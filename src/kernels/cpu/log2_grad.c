/* log2_grad: X@GRAD = Out@GRAD / (X ln 2).
 * Reads X (phi's log2 grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(log2_grad, ic_noattrs, 1, log2_grad_f32, log2_grad_f64)

const ic_opdef ic_op_log2_grad =
    IC_ACTGRAD_DEF(log2_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
