/* log1p: Out = ln(1 + X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(log1p, ic_noattrs, log1p_f32, log1p_f64)

const ic_opdef ic_op_log1p = IC_ACTIVATION_DEF(log1p, ic_noattrs, NULL, ic_activation_infer);
