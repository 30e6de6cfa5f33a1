/* silu_grad: X@GRAD = Out@GRAD * (1 / d) (1 + X exp(-X) / d), d = 1 + exp(-X); Paddle's op also
 * passes Out, which the CPU kernel does not read.
 * Reads X (phi's silu grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(silu_grad, ic_noattrs, 2, silu_grad_f32, silu_grad_f64)

const ic_opdef ic_op_silu_grad =
    IC_ACTGRAD_DEF(silu_grad, ic_noattrs, NULL, ic_actgrad_inputs_x_optout);
