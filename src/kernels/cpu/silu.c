/* silu: Out = X / (1 + exp(-X)) (Paddle's SiluFunctor). float32 and float64, computed in the
 * input's precision (paddle/phi/kernels/funcs/activation_functor.h); float32 by vmath's
 * vectorized form of the same formula (swish with beta 1: its exponential within 3 ulp of
 * libm's, the same bits at any vector width). */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/vmath.h"

#define SILU_VEC(o, x, n, a) ic_vswishf(o, x, n, 1.0f)
IC_ACTIVATION_RUN_VEC(silu, ic_noattrs, silu_f32, silu_f64, SILU_VEC)

const ic_opdef ic_op_silu = IC_ACTIVATION_DEF(silu, ic_noattrs, NULL, ic_activation_infer);
