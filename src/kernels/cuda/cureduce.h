/* The CUDA engine of the reduction family (reduce_sum, reduce_mean, reduce_max, mean), in
 * reduce.cu; each op's .cu file only forwards to it, as the CPU op files do. */
#ifndef IC_KERNELS_CUDA_CUREDUCE_H
#define IC_KERNELS_CUDA_CUREDUCE_H

#include "kernels/kernel.h"

/* Compute Out from X with the op's ic_reduce_attrs (already checked by infer). */
ic_status ic_cureduce_run(ic_kctx *c);

#endif
