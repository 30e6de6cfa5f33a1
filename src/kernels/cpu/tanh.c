/* tanh: Out = tanh(X). */
#include "kernels/cpu/activation.h"

static inline float tanh_f32(float x, const ic_noattrs *a) { return tanhf(x); }
static inline double tanh_f64(double x, const ic_noattrs *a) { return tanh(x); }

IC_ACTIVATION_RUN(tanh, ic_noattrs, tanh_f32, tanh_f64)

const ic_opdef ic_op_tanh = IC_ACTIVATION_DEF(tanh, ic_noattrs, NULL, ic_activation_infer);
