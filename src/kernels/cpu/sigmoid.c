/* sigmoid: Out = 1 / (1 + exp(-X)) (sigmoid_f32 / sigmoid_f64 in activation.h). */
#include "kernels/cpu/activation.h"

IC_ACTIVATION_RUN(sigmoid, ic_noattrs, sigmoid_f32, sigmoid_f64)

const ic_opdef ic_op_sigmoid =
    IC_ACTIVATION_DEF(sigmoid, ic_noattrs, NULL, ic_activation_infer);
