/* abs on the GPU: |X| for float32, float64, int32 and int64 (abs_* in cpu/activation.h). */
#include "kernels/cuda/activation.cuh"

namespace {
struct abs_fn {
  __device__ float operator()(float x) const { return abs_f32(x); }
  __device__ double operator()(double x) const { return abs_f64(x); }
  __device__ int32_t operator()(int32_t x) const { return abs_i32(x); }
  __device__ int64_t operator()(int64_t x) const { return abs_i64(x); }
};
}  // namespace

extern "C" ic_status ic_cuda_abs(ic_kctx *c) { return ic_cuda_unary<true>(c, abs_fn{}); }
