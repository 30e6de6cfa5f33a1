/* sinh: Out = sinh(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(sinh, ic_noattrs, sinh_f32, sinh_f64)

const ic_opdef ic_op_sinh = IC_ACTIVATION_DEF(sinh, ic_noattrs, NULL, ic_activation_infer);
