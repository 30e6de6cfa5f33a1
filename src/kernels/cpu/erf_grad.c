/* erf_grad: X@GRAD = Out@GRAD * 2 / sqrt(pi) * exp(-X^2).
 * Reads X (phi's erf grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(erf_grad, ic_noattrs, 1, erf_grad_f32, erf_grad_f64)

const ic_opdef ic_op_erf_grad =
    IC_ACTGRAD_DEF(erf_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
