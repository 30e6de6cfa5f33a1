/* atan: Out = atan(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(atan, ic_noattrs, atan_f32, atan_f64)

const ic_opdef ic_op_atan = IC_ACTIVATION_DEF(atan, ic_noattrs, NULL, ic_activation_infer);
