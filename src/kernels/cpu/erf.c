/* erf: Out = erf(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(erf, ic_noattrs, erf_f32, erf_f64)

const ic_opdef ic_op_erf = IC_ACTIVATION_DEF(erf, ic_noattrs, NULL, ic_activation_infer);
