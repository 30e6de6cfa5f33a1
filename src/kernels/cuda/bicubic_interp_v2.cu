/* bicubic_interp_v2 on the GPU: the resize family's CUDA engine (interp.cu). */
#include "kernels/cuda/cuinterp.h"

extern "C" ic_status ic_cuda_bicubic_interp_v2(ic_kctx *c) { return ic_cuinterp_run(c); }
