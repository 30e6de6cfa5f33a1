/* reciprocal: Out = 1 / X. float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(reciprocal, ic_noattrs, reciprocal_f32, reciprocal_f64)

const ic_opdef ic_op_reciprocal =
    IC_ACTIVATION_DEF(reciprocal, ic_noattrs, NULL, ic_activation_infer);
