/* log10: Out = log10(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(log10, ic_noattrs, log10_f32, log10_f64)

const ic_opdef ic_op_log10 = IC_ACTIVATION_DEF(log10, ic_noattrs, NULL, ic_activation_infer);
