/* Helpers for the CUDA kernels (C++, nvcc only): the stream and handles from the kernel
 * environment, CUDA / cuBLAS status checks that fail the kernel context with IC_ERR_DEVICE,
 * launch geometry for grid-stride loops, stream-ordered scratch, and block reductions.
 * Every function here is static inline: each .cu file is its own translation unit. */
#ifndef IC_KERNELS_CUDA_CUDAUTIL_H
#define IC_KERNELS_CUDA_CUDAUTIL_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels/kernel.h"

#ifndef IC_HD
#define IC_HD __host__ __device__
#endif

/* Threads per block of the element-wise and row kernels: a multiple of the warp size. */
#define IC_CU_THREADS 256

static inline cudaStream_t ic_cu_stream(const ic_kctx *c) {
  return (cudaStream_t)c->env->stream;
}
static inline cublasHandle_t ic_cu_blas(const ic_kctx *c) {
  return (cublasHandle_t)c->env->blas;
}

/* IC_OK, or fail c with IC_ERR_DEVICE naming what failed and CUDA's reason. */
static inline ic_status ic_cu_check(ic_kctx *c, cudaError_t e, const char *what) {
  if (e == cudaSuccess) return IC_OK;
  return ic_kfail(c, IC_ERR_DEVICE, "%s failed: %s (%s)", what, cudaGetErrorString(e),
                  cudaGetErrorName(e));
}
static inline ic_status ic_cu_check_blas(ic_kctx *c, cublasStatus_t e, const char *what) {
  if (e == CUBLAS_STATUS_SUCCESS) return IC_OK;
  return ic_kfail(c, IC_ERR_DEVICE, "cuBLAS %s failed: %s", what, cublasGetStatusString(e));
}
/* After a kernel launch: a bad configuration or an earlier asynchronous fault shows here. */
static inline ic_status ic_cu_launched(ic_kctx *c, const char *kernel) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return IC_OK;
  return ic_kfail(c, IC_ERR_DEVICE, "launch of CUDA kernel %s failed: %s (%s)", kernel,
                  cudaGetErrorString(e), cudaGetErrorName(e));
}
/* A stream without a handle cannot run anything: the caller built the environment wrong. */
static inline ic_status ic_cu_need_env(ic_kctx *c, bool blas) {
  if (!c->env || !c->env->stream) {
    return ic_kfail(c, IC_ERR_INTERNAL, "CUDA kernel called without a stream in its environment");
  }
  if (blas && !c->env->blas) {
    return ic_kfail(c, IC_ERR_INTERNAL, "CUDA kernel called without a cuBLAS handle");
  }
  return IC_OK;
}

/* Blocks for a grid-stride loop over n items, IC_CU_THREADS each: enough to fill the device
 * many times over, capped so the count fits the grid's x dimension comfortably. */
static inline unsigned ic_cu_blocks(int64_t n) {
  int64_t b = (n + IC_CU_THREADS - 1) / IC_CU_THREADS;
  if (b < 1) b = 1;
  if (b > 65536) b = 65536;
  return (unsigned)b;
}
/* Blocks when each block takes whole rows (one row per block, grid-stride over rows). */
static inline unsigned ic_cu_row_blocks(int64_t rows) {
  if (rows < 1) return 1;
  return rows > 65536 ? 65536u : (unsigned)rows;
}

/* Scratch device memory, stream-ordered: freed on the same stream after the kernels that use
 * it, so the pool can hand it out again without a synchronization. */
static inline ic_status ic_cu_scratch(ic_kctx *c, size_t bytes, void **p) {
  *p = NULL;
  if (bytes == 0) return IC_OK;
  cudaError_t e = cudaMallocAsync(p, bytes, ic_cu_stream(c));
  if (e != cudaSuccess) {
    *p = NULL;
    (void)cudaGetLastError();
    return ic_kfail(c, e == cudaErrorMemoryAllocation ? IC_ERR_OUT_OF_MEMORY : IC_ERR_DEVICE,
                    "cudaMallocAsync of %zu bytes of scratch failed: %s", bytes,
                    cudaGetErrorString(e));
  }
  return IC_OK;
}
/* Release scratch; keeps the first error (st) when there was one. */
static inline ic_status ic_cu_scratch_free(ic_kctx *c, void *p, ic_status st) {
  if (!p) return st;
  cudaError_t e = cudaFreeAsync(p, ic_cu_stream(c));
  if (st) return st;
  return ic_cu_check(c, e, "cudaFreeAsync of scratch");
}

/* Grid-stride index over [0, n): 64-bit throughout. */
#define IC_CU_FOR(i, n)                                                                 \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (int64_t)(n);   \
       i += (int64_t)blockDim.x * gridDim.x)

#ifdef __CUDACC__
/* Reduce v over the block with combine(a, b) (a from the lower lanes): every thread gets the
 * result. `shared` holds one slot per warp (32 is enough for any block). Every thread of the
 * block must call it. */
template <typename T, typename F>
__device__ inline T ic_cu_block_reduce(T v, F combine, T *shared) {
  const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
  const unsigned nwarps = (blockDim.x + 31u) / 32u;
  for (int off = 16; off > 0; off /= 2) {
    T o = __shfl_down_sync(0xffffffffu, v, off);
    if (lane + (unsigned)off < 32u) v = combine(v, o);
  }
  __syncthreads(); /* the previous call's readers of shared are done */
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  T r = shared[0];
  for (unsigned w = 1; w < nwarps; w++) r = combine(r, shared[w]);
  return r;
}
#endif

#endif
