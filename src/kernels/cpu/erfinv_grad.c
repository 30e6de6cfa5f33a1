/* erfinv_grad: X@GRAD = sqrt(pi) / 2 * Out@GRAD * exp(Out^2).
 * Reads Out (phi ErfinvGradKernel), float32 and float64 in the data's type. */
#include "kernels/cpu/activation_grad.h"

#define IC_HALF_SQRTPI 0.88622692545275801364908374167057 /* sqrt(pi) / 2 */

IC_ACTGRAD_FN(erfinv_grad, ic_noattrs, (float)IC_HALF_SQRTPI * g * expf(u * u), IC_HALF_SQRTPI * g * exp(u * u))

IC_ACTGRAD_RUN(erfinv_grad, ic_noattrs, 1, erfinv_grad_f32, erfinv_grad_f64)

const ic_opdef ic_op_erfinv_grad =
    IC_ACTGRAD_DEF(erfinv_grad, ic_noattrs, NULL, ic_actgrad_inputs_out);
