/* sigmoid: Out = 1 / (1 + exp(-X)). */
#include "kernels/cpu/activation.h"

static inline float sigmoid_f32(float x, const ic_noattrs *a) { return 1.0f / (1.0f + expf(-x)); }
static inline double sigmoid_f64(double x, const ic_noattrs *a) { return 1.0 / (1.0 + exp(-x)); }

IC_ACTIVATION_RUN(sigmoid, ic_noattrs, sigmoid_f32, sigmoid_f64)

const ic_opdef ic_op_sigmoid =
    IC_ACTIVATION_DEF(sigmoid, ic_noattrs, NULL, ic_activation_infer);
