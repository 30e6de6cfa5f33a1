/* cosh: Out = cosh(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(cosh, ic_noattrs, cosh_f32, cosh_f64)

const ic_opdef ic_op_cosh = IC_ACTIVATION_DEF(cosh, ic_noattrs, NULL, ic_activation_infer);
