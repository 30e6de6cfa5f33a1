/* arg_max / arg_min's CUDA engine (argmm.cu). */
#ifndef IC_KERNELS_CUDA_CUARGMM_H
#define IC_KERNELS_CUDA_CUARGMM_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

ic_status ic_cuargmm_run(ic_kctx *c, bool max);

#ifdef __cplusplus
}
#endif

#endif
