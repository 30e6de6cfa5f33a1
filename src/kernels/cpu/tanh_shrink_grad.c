/* tanh_shrink_grad: X@GRAD = Out@GRAD * tanh(X)^2.
 * Reads X (phi's tanh_shrink grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(tanh_shrink_grad, ic_noattrs, 1, tanh_shrink_grad_f32, tanh_shrink_grad_f64)

const ic_opdef ic_op_tanh_shrink_grad =
    IC_ACTGRAD_DEF(tanh_shrink_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
