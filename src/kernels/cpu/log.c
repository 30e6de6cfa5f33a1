/* log: Out = ln(X); a negative input gives NaN, 0 gives -inf. float32 and float64, computed in the
 * input's precision (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(log, ic_noattrs, log_f32, log_f64)

const ic_opdef ic_op_log = IC_ACTIVATION_DEF(log, ic_noattrs, NULL, ic_activation_infer);
