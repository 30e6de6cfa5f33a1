/* arg_max on the GPU (argmm.cu). */
#include "kernels/cuda/cuargmm.h"

extern "C" ic_status ic_cuda_arg_max(ic_kctx *c) { return ic_cuargmm_run(c, true); }
