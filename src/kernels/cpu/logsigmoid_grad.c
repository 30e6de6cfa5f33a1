/* logsigmoid_grad: X@GRAD = Out@GRAD * exp(-X - t) / (exp(-t) + exp(-X - t)), t = max(-X, 0)
 * (sigmoid(-X) without overflow).
 * Reads X (phi's logsigmoid grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(logsigmoid_grad, ic_noattrs, 1, logsigmoid_grad_f32, logsigmoid_grad_f64)

const ic_opdef ic_op_logsigmoid_grad =
    IC_ACTGRAD_DEF(logsigmoid_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
