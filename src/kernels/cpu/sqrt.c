/* sqrt: Out = sqrt(X); negative inputs give NaN, as in Paddle (sqrt_f32 / sqrt_f64 in
 * activation.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(sqrt, ic_noattrs, sqrt_f32, sqrt_f64)

const ic_opdef ic_op_sqrt = IC_ACTIVATION_DEF(sqrt, ic_noattrs, NULL, ic_activation_infer);
