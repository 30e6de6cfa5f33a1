/* The CUDA engine of the convolution family (conv2d, depthwise_conv2d) in conv.cu, and the
 * cuDNN switch that conv and pool2d share. */
#ifndef IC_KERNELS_CUDA_CUCONV_H
#define IC_KERNELS_CUDA_CUCONV_H

#include "kernels/kernel.h"

/* Whether this call may use cuDNN: icore built with it, a cuDNN handle in the environment,
 * and the environment variable ICORE_CUDNN not set to "0" (which selects the fallbacks:
 * im2col + cuBLAS for convolutions, the direct kernel for pooling). */
bool ic_cuconv_use_cudnn(const ic_kctx *c);

/* Compute Output for conv2d / depthwise_conv2d (infer has run). With a state slot
 * (ic_kctx.state) the cuDNN descriptors and the algorithm chosen for the current geometry
 * are kept there and rebuilt only when the geometry or dtype changes: in cuDNN 9 choosing
 * an algorithm costs about a millisecond of host time, which made an eager MobileNetV2 run
 * on an H100 take 72 ms before. */
ic_status ic_cuconv_run(ic_kctx *c);
/* Frees that state (registry_cuda.c hands it to the executor). */
extern "C" void ic_cuconv_free_state(void *state);

#endif
