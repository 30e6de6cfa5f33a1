/* depthwise_conv2d_transpose: conv2d_transpose with groups = channels, as Paddle exports it
 * for a depthwise transposed convolution; the same op (see conv_transpose.c). */
#include "kernels/cpu/conv_transpose.h"

const ic_opdef ic_op_depthwise_conv2d_transpose = IC_CONVT_DEF("depthwise_conv2d_transpose");
