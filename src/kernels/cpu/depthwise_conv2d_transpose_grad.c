/* depthwise_conv2d_transpose_grad: the gradients of depthwise_conv2d_transpose, which is
 * conv2d_transpose with groups equal to the input channels (conv2d_transpose_grad.c computes
 * both). */
#include "kernels/cpu/conv_transpose.h"

const ic_opdef ic_op_depthwise_conv2d_transpose_grad =
    IC_CONVT_GRAD_DEF("depthwise_conv2d_transpose_grad");
