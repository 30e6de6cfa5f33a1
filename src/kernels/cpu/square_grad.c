/* square_grad: X@GRAD = Out@GRAD * 2 * X.
 * Reads X (phi's square grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(square_grad, ic_noattrs, 1, square_grad_f32, square_grad_f64)

const ic_opdef ic_op_square_grad =
    IC_ACTGRAD_DEF(square_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
