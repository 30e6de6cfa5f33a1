/* depthwise_conv2d: conv2d with groups (normally groups == C_in); Paddle runs it through the
 * same convolution, and so does icore (conv.c). */
#include "kernels/cpu/conv.h"

const ic_opdef ic_op_depthwise_conv2d = {
    .name = "depthwise_conv2d",
    .n_inputs = IC_CONV_N_INPUTS, .inputs = ic_conv_inputs,
    .n_outputs = IC_CONV_N_OUTPUTS, .outputs = ic_conv_outputs,
    .attrs_size = sizeof(ic_conv_attrs), .parse = ic_conv_parse,
    .infer = ic_conv_infer, .cpu = ic_conv_cpu,
    .free_state = ic_conv_free_state,
};
