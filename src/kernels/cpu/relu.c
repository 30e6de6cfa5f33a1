/* relu: Out = max(X, 0). A NaN gives 0, as Paddle's CPU kernel (x > 0 ? x : 0) does. */
#include "kernels/cpu/activation.h"

static inline float relu_f32(float x, const ic_noattrs *a) { return x > 0 ? x : 0.0f; }
static inline double relu_f64(double x, const ic_noattrs *a) { return x > 0 ? x : 0.0; }

IC_ACTIVATION_RUN(relu, ic_noattrs, relu_f32, relu_f64)

const ic_opdef ic_op_relu = IC_ACTIVATION_DEF(relu, ic_noattrs, NULL, ic_activation_infer);
