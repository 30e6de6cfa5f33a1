/* pow on the GPU: Out = X ^ factor with the exponent of cpu/pow.c (the attribute, or the
 * FactorTensor input, which stays on the host: IC_SLOT_VALUE). float32 and float64 through
 * CUDA's powf / pow (a few ulp from the host's); int32 and int64 through ic_pow_i32 /
 * ic_pow_i64 of cpu/activation.h, exactly as the CPU kernel. */
#include "kernels/cpu/convert.h"
#include "kernels/cuda/activation.cuh"

namespace {
struct pow_fn {
  float f;
  int32_t e32;
  int64_t e64;
  __device__ float operator()(float v) const { return powf(v, f); }
  __device__ double operator()(double v) const { return pow(v, (double)f); }
  __device__ int32_t operator()(int32_t v) const { return ic_pow_i32(v, e32); }
  __device__ int64_t operator()(int64_t v) const { return ic_pow_i64(v, e64); }
};
}  // namespace

extern "C" ic_status ic_cuda_pow(ic_kctx *c) {
  const pow_attrs *a = (const pow_attrs *)c->attrs;
  const ic_tensor *ft = ic_in(c, 1, 0);
  const float f = ft ? (float)ic_read_f64(ft, 0) : a->factor;
  return ic_cuda_unary<true>(c, pow_fn{f, ic_f64_to_i32((double)f), ic_f64_to_i64((double)f)});
}
