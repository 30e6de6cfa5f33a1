/* softsign_grad: X@GRAD = Out@GRAD / (1 + |X|)^2.
 * Reads X (phi's softsign grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(softsign_grad, ic_noattrs, 1, softsign_grad_f32, softsign_grad_f64)

const ic_opdef ic_op_softsign_grad =
    IC_ACTGRAD_DEF(softsign_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
