/* conv2d on the GPU: the convolution family's CUDA engine (conv.cu). */
#include "kernels/cuda/cuconv.h"

extern "C" ic_status ic_cuda_conv2d(ic_kctx *c) { return ic_cuconv_run(c); }
