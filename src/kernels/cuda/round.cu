/* round on the GPU: round half to even (round_f32 / round_f64 of cpu/activation.h, with
 * `decimals`); int32 and int64 come through unchanged (as cpu/round.c). */
#include "kernels/cuda/activation.cuh"

namespace {
struct round_fn {
  round_attrs a;
  __device__ float operator()(float v) const { return round_f32(v, &a); }
  __device__ double operator()(double v) const { return round_f64(v, &a); }
  __device__ int32_t operator()(int32_t v) const { return v; }
  __device__ int64_t operator()(int64_t v) const { return v; }
};
}  // namespace

extern "C" ic_status ic_cuda_round(ic_kctx *c) {
  return ic_cuda_unary<true>(c, round_fn{*(const round_attrs *)c->attrs});
}
