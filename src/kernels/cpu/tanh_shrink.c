/* tanh_shrink: Out = X - tanh(X). float32 and float64, computed in the input's precision
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(tanh_shrink, ic_noattrs, tanh_shrink_f32, tanh_shrink_f64)

const ic_opdef ic_op_tanh_shrink =
    IC_ACTIVATION_DEF(tanh_shrink, ic_noattrs, NULL, ic_activation_infer);
