/* sqrt: Out = sqrt(X); negative inputs give NaN, as in Paddle. */
#include "kernels/cpu/activation.h"

static inline float sqrt_f32(float x, const ic_noattrs *a) { return sqrtf(x); }
static inline double sqrt_f64(double x, const ic_noattrs *a) { return sqrt(x); }

IC_ACTIVATION_RUN(sqrt, ic_noattrs, sqrt_f32, sqrt_f64)

const ic_opdef ic_op_sqrt = IC_ACTIVATION_DEF(sqrt, ic_noattrs, NULL, ic_activation_infer);
