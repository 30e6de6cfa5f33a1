/* log2: Out = log2(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(log2, ic_noattrs, log2_f32, log2_f64)

const ic_opdef ic_op_log2 = IC_ACTIVATION_DEF(log2, ic_noattrs, NULL, ic_activation_infer);
