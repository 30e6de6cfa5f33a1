/* tanh: Out = tanh(X) (tanh_f32 / tanh_f64 in activation.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(tanh, ic_noattrs, tanh_f32, tanh_f64)

const ic_opdef ic_op_tanh = IC_ACTIVATION_DEF(tanh, ic_noattrs, NULL, ic_activation_infer);
