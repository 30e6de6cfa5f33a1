/* rsqrt: Out = 1 / sqrt(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(rsqrt, ic_noattrs, rsqrt_f32, rsqrt_f64)

const ic_opdef ic_op_rsqrt = IC_ACTIVATION_DEF(rsqrt, ic_noattrs, NULL, ic_activation_infer);
