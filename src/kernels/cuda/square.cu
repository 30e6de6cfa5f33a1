/* square on the GPU: X * X for float32 and float64; int32 and int64 wrap (unsigned
 * multiplication, as cpu/square.c). */
#include "kernels/cuda/activation.cuh"

namespace {
struct square_fn {
  __device__ float operator()(float v) const { return v * v; }
  __device__ double operator()(double v) const { return v * v; }
  __device__ int32_t operator()(int32_t v) const { return (int32_t)((uint32_t)v * (uint32_t)v); }
  __device__ int64_t operator()(int64_t v) const { return (int64_t)((uint64_t)v * (uint64_t)v); }
};
}  // namespace

extern "C" ic_status ic_cuda_square(ic_kctx *c) { return ic_cuda_unary<true>(c, square_fn{}); }
