/* reduce_sum on the GPU: the reduction family's CUDA engine (reduce.cu). */
#include "kernels/cuda/cureduce.h"

extern "C" ic_status ic_cuda_reduce_sum(ic_kctx *c) { return ic_cureduce_run(c); }
