/* cos: Out = cos(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(cos, ic_noattrs, cos_f32, cos_f64)

const ic_opdef ic_op_cos = IC_ACTIVATION_DEF(cos, ic_noattrs, NULL, ic_activation_infer);
