/* The CUDA engine of the transposed convolutions (conv2d_transpose,
 * depthwise_conv2d_transpose) in conv_transpose.cu. */
#ifndef IC_KERNELS_CUDA_CUCONVT_H
#define IC_KERNELS_CUDA_CUCONVT_H

#include "kernels/kernel.h"

/* Compute Output (infer has run) with the geometry of cpu/conv_transpose.c. */
ic_status ic_cuconvt_run(ic_kctx *c);

#endif
