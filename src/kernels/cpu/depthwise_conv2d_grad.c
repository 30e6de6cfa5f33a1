/* depthwise_conv2d_grad: the gradients of depthwise_conv2d, which is conv2d with groups equal
 * to the input channels (conv2d_grad.c computes both). */
#include "kernels/cpu/conv.h"
#include "kernels/cpu/train.h"

const ic_opdef ic_op_depthwise_conv2d_grad = {
    .name = "depthwise_conv2d_grad",
    .n_inputs = 3, .inputs = ic_conv_grad_inputs,
    .n_outputs = 2, .outputs = ic_conv_grad_outputs,
    .attrs_size = sizeof(ic_conv_attrs), .parse = ic_conv_parse,
    .infer = ic_conv_grad_infer, .cpu = ic_conv_grad_run,
};
