/* logsigmoid: Out = log(1 / (1 + exp(-X))), in Paddle's overflow-free form (see activation.h).
 * float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(logsigmoid, ic_noattrs, logsigmoid_f32, logsigmoid_f64)

const ic_opdef ic_op_logsigmoid =
    IC_ACTIVATION_DEF(logsigmoid, ic_noattrs, NULL, ic_activation_infer);
