/* log10_grad: X@GRAD = Out@GRAD / (X ln 10).
 * Reads X (phi's log10 grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(log10_grad, ic_noattrs, 1, log10_grad_f32, log10_grad_f64)

const ic_opdef ic_op_log10_grad =
    IC_ACTGRAD_DEF(log10_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
