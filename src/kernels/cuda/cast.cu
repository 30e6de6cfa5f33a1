/* cast on the GPU: every element decoded and encoded with cpu/cast.h's ic_cast_load /
 * ic_cast_store, the CPU kernel's conversions (Paddle's static_cast on x86-64, float16 and
 * bfloat16 rounding to nearest even). One kernel for every dtype pair: the switches are
 * uniform across the grid, and a cast is bound by memory. Same dtype (bool aside): a copy. */
#include "kernels/cpu/cast.h"
#include "kernels/cuda/cuda_util.cuh"

__global__ void cast_kernel(void *__restrict__ o, const void *__restrict__ x, int64_t n,
                            ic_dtype xdt, ic_dtype odt) {
  IC_CUDA_FOR(i, n) ic_cast_store(o, i, odt, ic_cast_load(x, i, xdt));
}

extern "C" ic_status ic_cuda_cast(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (n == 0) return IC_OK;
  cudaStream_t s = ic_cuda_stream(c);
  if (x->dtype == o->dtype && x->dtype != IC_BOOL) {
    return ic_cuda_check(c, cudaMemcpyAsync(o->data, x->data, (size_t)n * ic_dtype_size(x->dtype),
                                            cudaMemcpyDeviceToDevice, s),
                         "cast: cudaMemcpyAsync");
  }
  cast_kernel<<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, s>>>(o->data, x->data, n, x->dtype,
                                                            o->dtype);
  return ic_cuda_launched(c, "cast");
}
