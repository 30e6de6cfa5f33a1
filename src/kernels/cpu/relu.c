/* relu: Out = max(X, 0). A NaN gives 0, as Paddle's CPU kernel (x > 0 ? x : 0) does. The
 * formula is relu_f32 / relu_f64 in activation.h. */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(relu, ic_noattrs, relu_f32, relu_f64)

const ic_opdef ic_op_relu = IC_ACTIVATION_DEF(relu, ic_noattrs, NULL, ic_activation_infer);
