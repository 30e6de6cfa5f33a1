/* sign on the GPU: -1, 0 or 1 by the sign of X, a NaN staying NaN (as cpu/sign.c), for
 * float32, float64, int32 and int64. */
#include "kernels/cuda/activation.cuh"

namespace {
struct sign_fn {
  __device__ float operator()(float v) const { return v != v ? v : (float)((v > 0) - (v < 0)); }
  __device__ double operator()(double v) const {
    return v != v ? v : (double)((v > 0) - (v < 0));
  }
  __device__ int32_t operator()(int32_t v) const { return (int32_t)((v > 0) - (v < 0)); }
  __device__ int64_t operator()(int64_t v) const { return (int64_t)((v > 0) - (v < 0)); }
};
}  // namespace

extern "C" ic_status ic_cuda_sign(ic_kctx *c) { return ic_cuda_unary<true>(c, sign_fn{}); }
