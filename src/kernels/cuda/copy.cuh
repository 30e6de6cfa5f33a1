/* Strided copies on the GPU, the data movement behind concat, split, slice and transpose2:
 * ic_cuda_copy_box copies an n-D box of elements between two strided layouts. */
#ifndef IC_KERNELS_CUDA_COPY_CUH
#define IC_KERNELS_CUDA_COPY_CUH

#include "kernels/cuda/cuda_util.cuh"

/* For every index (i_0, ..., i_{n-1}) below dims: dst[sum i_k * sdst_k] = src[sum i_k *
 * ssrc_k], in elements of es bytes (strides in elements, n <= IC_MAX_RANK). Size-1 dims are
 * dropped and dims that are contiguous with their inner neighbour on both sides merged;
 * when the innermost dim is contiguous on both sides the copy moves the widest unit (up to
 * 16 bytes) that divides the rows, the strides and both addresses. Offsets in 32-bit
 * arithmetic when they fit. Launches one kernel on the context's stream (none for an empty
 * box). */
ic_status ic_cuda_copy_box(ic_kctx *c, void *dst, const void *src, int n, const int64_t *dims,
                           const int64_t *sdst, const int64_t *ssrc, size_t es);

#endif
