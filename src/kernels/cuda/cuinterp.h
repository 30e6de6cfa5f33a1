/* The resize family's CUDA engine (interp.cu), shared by the resize ops' .cu files. */
#ifndef IC_KERNELS_CUDA_CUINTERP_H
#define IC_KERNELS_CUDA_CUINTERP_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

ic_status ic_cuinterp_run(ic_kctx *c);

#ifdef __cplusplus
}
#endif

#endif
