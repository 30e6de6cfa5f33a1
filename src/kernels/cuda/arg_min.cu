/* arg_min on the GPU (argmm.cu). */
#include "kernels/cuda/cuargmm.h"

extern "C" ic_status ic_cuda_arg_min(ic_kctx *c) { return ic_cuargmm_run(c, false); }
