/* rsqrt_grad: X@GRAD = -0.5 * Out@GRAD * Out^3.
 * Reads Out (phi's rsqrt grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(rsqrt_grad, ic_noattrs, 1, rsqrt_grad_f32, rsqrt_grad_f64)

const ic_opdef ic_op_rsqrt_grad =
    IC_ACTGRAD_DEF(rsqrt_grad, ic_noattrs, NULL, ic_actgrad_inputs_out);
