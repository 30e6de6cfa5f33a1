/* cos_grad: X@GRAD = -Out@GRAD * sin(X).
 * Reads X (phi's cos grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(cos_grad, ic_noattrs, 1, cos_grad_f32, cos_grad_f64)

const ic_opdef ic_op_cos_grad =
    IC_ACTGRAD_DEF(cos_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
