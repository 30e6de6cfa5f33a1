/* mean on the GPU: the reduction family's CUDA engine (reduce.cu). */
#include "kernels/cuda/cureduce.h"

extern "C" ic_status ic_cuda_mean(ic_kctx *c) { return ic_cureduce_run(c); }
