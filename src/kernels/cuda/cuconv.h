/* The CUDA engine of the convolution family (conv2d, depthwise_conv2d) in conv.cu, and the
 * cuDNN switch that conv and pool2d share. */
#ifndef IC_KERNELS_CUDA_CUCONV_H
#define IC_KERNELS_CUDA_CUCONV_H

#include "kernels/kernel.h"

/* Whether this call may use cuDNN: icore built with it, a cuDNN handle in the environment,
 * and the environment variable ICORE_CUDNN not set to "0" (which selects the fallbacks:
 * im2col + cuBLAS for convolutions, the direct kernel for pooling). */
bool ic_cuconv_use_cudnn(const ic_kctx *c);

/* Compute Output for conv2d / depthwise_conv2d (infer has run). */
ic_status ic_cuconv_run(ic_kctx *c);

#endif
