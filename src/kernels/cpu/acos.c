/* acos: Out = acos(X) (NaN outside [-1, 1]). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(acos, ic_noattrs, acos_f32, acos_f64)

const ic_opdef ic_op_acos = IC_ACTIVATION_DEF(acos, ic_noattrs, NULL, ic_activation_infer);
