/* dropout on the GPU, as cpu/dropout.c: inference (is_test, or no Mask output) gives
 * X * (1 - p) (downgrade_in_infer) or X (upscale_in_train); training draws the CPU kernel's
 * Philox mask for the same seed (element i is dropped when word i % 4 of block i / 4, as a
 * uniform in [0, 1), is below p) and allocates Mask from the environment's allocator (device
 * memory on a GPU). The seed comes from input Seed, read on the device, else the attributes. */
#include "kernels/cpu/dropout.h"
#include "kernels/cuda/random.cuh"

template <typename T>
__global__ void dropout_scale_kernel(T *__restrict__ o, const T *__restrict__ x, int64_t n,
                                     T k) {
  IC_CUDA_FOR(i, n) o[i] = x[i] * k;
}

template <typename T>
__global__ void dropout_train_kernel(T *__restrict__ o, uint8_t *__restrict__ m,
                                     const T *__restrict__ x, int64_t n, float p, bool upscale,
                                     const void *seed_t, ic_dtype seed_dt, int64_t seed_attr,
                                     uint64_t env_seed, uint64_t op_key) {
  int64_t seed = seed_attr;
  if (seed_t) {
    seed = seed_dt == IC_INT32 ? ((const int32_t *)seed_t)[0] : ((const int64_t *)seed_t)[0];
  }
  const uint64_t key = ic_philox_key(seed, env_seed, op_key);
  const T keep = (T)(1.0f - p);
  IC_CUDA_FOR(b, ic_philox_blocks(n)) {
    const int64_t i = b * 4;
    const ic_philox4 r = ic_philox_block(key, (uint64_t)i);
    for (int j = 0; j < 4 && i + j < n; j++) {
      const bool drop = ic_philox_u24(r.v[j]) < p;
      m[i + j] = !drop;
      o[i + j] = drop ? (T)0 : upscale ? x[i + j] / keep : x[i + j];
    }
  }
}

extern "C" ic_status ic_cuda_dropout(ic_kctx *c) {
  const dropout_attrs *a = (const dropout_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, IC_DROPOUT_X, 0), *seed = ic_in(c, IC_DROPOUT_SEED, 0);
  ic_tensor *o = ic_out(c, IC_DROPOUT_OUT, 0), *mask = ic_out(c, IC_DROPOUT_MASK, 0);
  const int64_t n = ic_tensor_numel_(x);
  cudaStream_t s = ic_cuda_stream(c);
  const size_t bytes = (size_t)n * ic_dtype_size(x->dtype);
  if (a->is_test || !mask) {
    if (n == 0) return IC_OK;
    if (a->upscale) {
      return ic_cuda_check(
          c, cudaMemcpyAsync(o->data, x->data, bytes, cudaMemcpyDeviceToDevice, s),
          "dropout: cudaMemcpyAsync");
    }
    return ic_cuda_dispatch_float(c, x->dtype, [&](auto z) {
      using T = decltype(z);
      dropout_scale_kernel<T><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, s>>>(
          (T *)o->data, (const T *)x->data, n, (T)(1.0f - a->p));
      return ic_cuda_launched(c, "dropout");
    });
  }
  ic_status st = ic_tensor_alloc(mask, c->env->alloc, c->err);
  if (st || n == 0) return st;
  if (a->p == 1.0f) { /* everything dropped, without drawing */
    st = ic_cuda_check(c, cudaMemsetAsync(mask->data, 0, (size_t)n, s), "dropout: cudaMemsetAsync");
    if (st) return st;
    return ic_cuda_check(c, cudaMemsetAsync(o->data, 0, bytes, s), "dropout: cudaMemsetAsync");
  }
  return ic_cuda_dispatch_float(c, x->dtype, [&](auto z) {
    using T = decltype(z);
    dropout_train_kernel<T><<<ic_cuda_blocks(ic_philox_blocks(n)), IC_CUDA_THREADS, 0, s>>>(
        (T *)o->data, (uint8_t *)mask->data, (const T *)x->data, n, a->p, a->upscale,
        seed ? seed->data : NULL, seed ? seed->dtype : IC_INT64, a->seed, c->env->seed,
        c->op_key);
    return ic_cuda_launched(c, "dropout");
  });
}
