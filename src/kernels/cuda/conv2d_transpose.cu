/* conv2d_transpose on the GPU: the transposed convolutions' CUDA engine (conv_transpose.cu). */
#include "kernels/cuda/cuconvt.h"

extern "C" ic_status ic_cuda_conv2d_transpose(ic_kctx *c) { return ic_cuconvt_run(c); }
