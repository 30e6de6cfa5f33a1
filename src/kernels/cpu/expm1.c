/* expm1: Out = exp(X) - 1, accurate near 0 (expm1). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(expm1, ic_noattrs, expm1_f32, expm1_f64)

const ic_opdef ic_op_expm1 = IC_ACTIVATION_DEF(expm1, ic_noattrs, NULL, ic_activation_infer);
