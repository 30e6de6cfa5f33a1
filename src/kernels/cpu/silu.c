/* silu: Out = X / (1 + exp(-X)) (Paddle's SiluFunctor). float32 and float64, computed in the
 * input's precision (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(silu, ic_noattrs, silu_f32, silu_f64)

const ic_opdef ic_op_silu = IC_ACTIVATION_DEF(silu, ic_noattrs, NULL, ic_activation_infer);
