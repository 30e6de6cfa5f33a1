/* More helpers for the CUDA kernels, on top of cuda_util.cuh (C++, nvcc only): the cuBLAS
 * handle and its status checks, the environment check, row-per-block launch geometry,
 * stream-ordered scratch, and block reductions. */
#ifndef IC_KERNELS_CUDA_CUDA_KIT_CUH
#define IC_KERNELS_CUDA_CUDA_KIT_CUH

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels/cuda/cuda_util.cuh"
#include "kernels/kernel.h"

static inline cublasHandle_t ic_cuda_blas(const ic_kctx *c) {
  return (cublasHandle_t)c->env->blas;
}

/* IC_OK, or fail c with IC_ERR_DEVICE naming the cuBLAS call and its status. */
static inline ic_status ic_cuda_check_blas(ic_kctx *c, cublasStatus_t e, const char *what) {
  if (e == CUBLAS_STATUS_SUCCESS) return IC_OK;
  return ic_kfail(c, IC_ERR_DEVICE, "cuBLAS %s failed: %s", what, cublasGetStatusString(e));
}

/* A kernel called without a stream (or, when it needs one, a cuBLAS handle) has been given a
 * broken environment by its caller. */
static inline ic_status ic_cuda_need_env(ic_kctx *c, bool blas) {
  if (!c->env || !c->env->stream) {
    return ic_kfail(c, IC_ERR_INTERNAL, "%s: CUDA kernel called without a stream",
                    c->def->name);
  }
  if (blas && !c->env->blas) {
    return ic_kfail(c, IC_ERR_INTERNAL, "%s: CUDA kernel called without a cuBLAS handle",
                    c->def->name);
  }
  return IC_OK;
}

/* Blocks when each block takes whole rows, grid-stride over the rows. */
static inline unsigned ic_cuda_row_blocks(int64_t rows) {
  if (rows < 1) return 1;
  return rows > IC_CUDA_MAX_BLOCKS ? (unsigned)IC_CUDA_MAX_BLOCKS : (unsigned)rows;
}

/* Threads for a block that reduces n elements: whole warps, at most IC_CUDA_THREADS. */
static inline unsigned ic_cuda_row_threads(int64_t n) {
  int64_t t = (n + 31) / 32 * 32;
  if (t < 32) t = 32;
  if (t > IC_CUDA_THREADS) t = IC_CUDA_THREADS;
  return (unsigned)t;
}

/* Scratch device memory, stream-ordered: freed on the same stream after the kernels that use
 * it, so the pool can hand it out again without a synchronization. */
static inline ic_status ic_cuda_scratch(ic_kctx *c, size_t bytes, void **p) {
  *p = NULL;
  if (bytes == 0) return IC_OK;
  cudaError_t e = cudaMallocAsync(p, bytes, ic_cuda_stream(c));
  if (e != cudaSuccess) {
    *p = NULL;
    (void)cudaGetLastError();
    return ic_kfail(c, e == cudaErrorMemoryAllocation ? IC_ERR_OUT_OF_MEMORY : IC_ERR_DEVICE,
                    "cudaMallocAsync of %zu bytes of scratch failed: %s", bytes,
                    cudaGetErrorString(e));
  }
  return IC_OK;
}
/* Release scratch (NULL is ignored); returns st, or the release's failure when st is IC_OK. */
static inline ic_status ic_cuda_scratch_free(ic_kctx *c, void *p, ic_status st) {
  if (!p) return st;
  cudaError_t e = cudaFreeAsync(p, ic_cuda_stream(c));
  if (st) return st;
  return ic_cuda_check(c, e, "cudaFreeAsync of scratch");
}

/* Reduce v over the block with combine(a, b) (a from the lower lanes); every thread gets the
 * result. The block is whole warps and every thread calls it; `shared` holds one slot per
 * warp (32 is enough for any block). */
template <typename T, typename F>
__device__ inline T ic_cuda_block_reduce(T v, F combine, T *shared) {
  const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
  const unsigned nwarps = (blockDim.x + 31u) / 32u;
  for (int off = 16; off > 0; off /= 2) {
    T o = __shfl_down_sync(0xffffffffu, v, off);
    if (lane + (unsigned)off < 32u) v = combine(v, o);
  }
  __syncthreads(); /* readers of shared from a previous call are done */
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  T r = shared[0];
  for (unsigned w = 1; w < nwarps; w++) r = combine(r, shared[w]);
  return r;
}

#endif
