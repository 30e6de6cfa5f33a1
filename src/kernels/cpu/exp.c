/* exp: Out = e^X (exp_f32 / exp_f64 in activation.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(exp, ic_noattrs, exp_f32, exp_f64)

const ic_opdef ic_op_exp = IC_ACTIVATION_DEF(exp, ic_noattrs, NULL, ic_activation_infer);
