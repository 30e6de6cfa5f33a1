/* conv2d_transpose: the transposed 2-D convolution (see conv_transpose.c). */
#include "kernels/cpu/conv_transpose.h"

const ic_opdef ic_op_conv2d_transpose = IC_CONVT_DEF("conv2d_transpose");
