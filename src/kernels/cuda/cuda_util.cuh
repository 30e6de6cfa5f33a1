/* Helpers for the CUDA kernels (C++, included only by the .cu files of src/kernels/cuda): error checks that
 * turn CUDA failures into IC_ERR_DEVICE, the stream of the context, launch geometry for
 * grid-stride loops, and the dtype dispatch the kernels share.
 *
 * Rules every kernel here follows: launch asynchronously on the context's stream (never the
 * default stream, never a synchronization), loop grid-stride over 64-bit indices (or 32-bit
 * ones where the caller has proved every index fits), check the launch with
 * ic_cuda_launched(). */
#ifndef IC_KERNELS_CUDA_CUDA_UTIL_CUH
#define IC_KERNELS_CUDA_CUDA_UTIL_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels/kernel.h"

/* The stream the kernel launches on. */
static inline cudaStream_t ic_cuda_stream(const ic_kctx *c) {
  return (cudaStream_t)c->env->stream;
}

/* IC_OK, or fail the context with IC_ERR_DEVICE naming what was done and CUDA's error. */
static inline ic_status ic_cuda_check(ic_kctx *c, cudaError_t e, const char *what) {
  if (e == cudaSuccess) return IC_OK;
  return ic_kfail(c, IC_ERR_DEVICE, "%s: %s (%s)", what, cudaGetErrorString(e),
                  cudaGetErrorName(e));
}

/* After a <<<...>>> launch: a launch failure (bad configuration, no kernel image for this
 * device) as IC_ERR_DEVICE naming the kernel. */
static inline ic_status ic_cuda_launched(ic_kctx *c, const char *kernel) {
  return ic_cuda_check(c, cudaGetLastError(), kernel);
}

/* Threads per block of the elementwise kernels, and the most blocks a grid-stride launch
 * asks for (enough to fill any current GPU many times over; larger tensors loop). */
#define IC_CUDA_THREADS 256
#define IC_CUDA_MAX_BLOCKS 65536

/* Blocks for n work items (at least 1, so that an empty launch is still valid; kernels loop
 * while i < n). */
static inline unsigned ic_cuda_blocks(int64_t n) {
  int64_t b = (n + IC_CUDA_THREADS - 1) / IC_CUDA_THREADS;
  if (b < 1) b = 1;
  if (b > IC_CUDA_MAX_BLOCKS) b = IC_CUDA_MAX_BLOCKS;
  return (unsigned)b;
}

/* Grid-stride loop over [0, n) with a 64-bit index named I. */
#define IC_CUDA_FOR(I, n)                                                                  \
  for (int64_t I = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; I < (n);                \
       I += (int64_t)blockDim.x * gridDim.x)

/* Call f(T()) for T the C type of a float32/float64 dtype: f is a generic lambda
 * `[&](auto z) { using T = decltype(z); ...; return status; }`. Another dtype is
 * IC_ERR_INTERNAL (infer should have refused it). */
template <typename F>
static inline ic_status ic_cuda_dispatch_float(ic_kctx *c, ic_dtype dt, F &&f) {
  switch (dt) {
    case IC_FP32: return f(float());
    case IC_FP64: return f(double());
    default:
      return ic_kfail(c, IC_ERR_INTERNAL, "%s: CUDA kernel reached with dtype %s", c->def->name,
                      ic_dtype_name(dt) ? ic_dtype_name(dt) : "?");
  }
}

/* Same for float32, float64, int32 and int64. */
template <typename F>
static inline ic_status ic_cuda_dispatch_num(ic_kctx *c, ic_dtype dt, F &&f) {
  switch (dt) {
    case IC_INT32: return f(int32_t());
    case IC_INT64: return f(int64_t());
    default: return ic_cuda_dispatch_float(c, dt, f);
  }
}

#endif
