/* gaussian_random on the GPU: the CPU kernel's values (cpu/gaussian_random.c) for the same
 * seed: Box-Muller on words (0, 1) and (2, 3) of Philox block i / 4 gives elements i..i+3,
 * mean + std * z computed in double and rounded to the output dtype. log, cos and sin come
 * from CUDA's math library, within an ulp or two of the host's in double: float64 outputs
 * may differ in their last bits; after rounding to float32, float16 or bfloat16 a difference
 * needs a double within that distance of a rounding boundary, which the GPU suite has not
 * seen (it allows one float32 ulp). */
#include "kernels/cpu/fill.h"
#include "kernels/cuda/random.cuh"

template <typename T, typename Store>
__global__ void gaussian_kernel(T *__restrict__ p, int64_t n, uint64_t key, double mean,
                                double sd, Store store) {
  IC_CUDA_FOR(b, ic_philox_blocks(n)) {
    const int64_t i = b * 4;
    const ic_philox4 r = ic_philox_block(key, (uint64_t)i);
    double z[4];
    ic_philox_normal2(r.v[0], r.v[1], &z[0], &z[1]);
    ic_philox_normal2(r.v[2], r.v[3], &z[2], &z[3]);
    for (int j = 0; j < 4 && i + j < n; j++) p[i + j] = store(mean + sd * z[j]);
  }
}

namespace {
struct store_f16 {
  __device__ uint16_t operator()(double v) const { return ic_f32_to_f16((float)v); }
};
struct store_bf16 {
  __device__ uint16_t operator()(double v) const { return ic_f32_to_bf16((float)v); }
};
}  // namespace

extern "C" ic_status ic_cuda_gaussian_random(ic_kctx *c) {
  const gaussian_random_attrs *a = (const gaussian_random_attrs *)c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(o);
  if (n == 0) return IC_OK;
  const uint64_t key = ic_philox_key(a->seed, c->env->seed, c->op_key);
  const unsigned blocks = ic_cuda_blocks(ic_philox_blocks(n));
  cudaStream_t s = ic_cuda_stream(c);
  const double mean = a->mean, sd = a->std;
  switch (o->dtype) {
    case IC_FP64:
      gaussian_kernel<double, ic_store_same><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (double *)o->data, n, key, mean, sd, ic_store_same());
      break;
    case IC_FP16:
      gaussian_kernel<uint16_t, store_f16><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (uint16_t *)o->data, n, key, mean, sd, store_f16());
      break;
    case IC_BF16:
      gaussian_kernel<uint16_t, store_bf16><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (uint16_t *)o->data, n, key, mean, sd, store_bf16());
      break;
    default:
      gaussian_kernel<float, ic_store_f32><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (float *)o->data, n, key, mean, sd, ic_store_f32());
      break;
  }
  return ic_cuda_launched(c, "gaussian_random");
}
