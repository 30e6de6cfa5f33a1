/* ceil on the GPU: ceil(X) for float32 and float64; int32 and int64 come through unchanged (as
 * cpu/ceil.c). */
#include "kernels/cuda/activation.cuh"

namespace {
struct ceil_fn {
  __device__ float operator()(float v) const { return ceilf(v); }
  __device__ double operator()(double v) const { return ceil(v); }
  __device__ int32_t operator()(int32_t v) const { return v; }
  __device__ int64_t operator()(int64_t v) const { return v; }
};
}  // namespace

extern "C" ic_status ic_cuda_ceil(ic_kctx *c) { return ic_cuda_unary<true>(c, ceil_fn{}); }
