/* exp: Out = e^X. */
#include "kernels/cpu/activation.h"

static inline float exp_f32(float x, const ic_noattrs *a) { return expf(x); }
static inline double exp_f64(double x, const ic_noattrs *a) { return exp(x); }

IC_ACTIVATION_RUN(exp, ic_noattrs, exp_f32, exp_f64)

const ic_opdef ic_op_exp = IC_ACTIVATION_DEF(exp, ic_noattrs, NULL, ic_activation_infer);
