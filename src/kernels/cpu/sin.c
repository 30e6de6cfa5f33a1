/* sin: Out = sin(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(sin, ic_noattrs, sin_f32, sin_f64)

const ic_opdef ic_op_sin = IC_ACTIVATION_DEF(sin, ic_noattrs, NULL, ic_activation_infer);
