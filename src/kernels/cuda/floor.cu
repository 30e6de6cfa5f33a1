/* floor on the GPU: floor(X) for float32 and float64; int32 and int64 come through unchanged (as
 * cpu/floor.c). */
#include "kernels/cuda/activation.cuh"

namespace {
struct floor_fn {
  __device__ float operator()(float v) const { return floorf(v); }
  __device__ double operator()(double v) const { return floor(v); }
  __device__ int32_t operator()(int32_t v) const { return v; }
  __device__ int64_t operator()(int64_t v) const { return v; }
};
}  // namespace

extern "C" ic_status ic_cuda_floor(ic_kctx *c) { return ic_cuda_unary<true>(c, floor_fn{}); }
