/* tan: Out = tan(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(tan, ic_noattrs, tan_f32, tan_f64)

const ic_opdef ic_op_tan = IC_ACTIVATION_DEF(tan, ic_noattrs, NULL, ic_activation_infer);
