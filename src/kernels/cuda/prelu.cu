/* prelu on the GPU: Out = X for X > 0, alpha X otherwise (a NaN gives alpha NaN), alpha from
 * Alpha (on the device) by the mode of cpu/prelu.c through ic_prelu_plan (activation.h):
 * element i uses alpha (i / inner) % na. float32 and float64, bit for bit the CPU's. */
#include "kernels/cuda/activation.cuh"

namespace {

template <typename T>
__global__ void prelu_kernel(T *__restrict__ o, const T *__restrict__ x,
                             const T *__restrict__ al, int64_t n, int64_t na, int64_t inner) {
  IC_CUDA_FOR(i, n) {
    const T v = x[i];
    o[i] = v > 0 ? v : al[(i / inner) % na] * v;
  }
}

}  // namespace

extern "C" ic_status ic_cuda_prelu(ic_kctx *c) {
  const prelu_attrs *a = (const prelu_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *al = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (n == 0) return IC_OK;
  int64_t na, inner;
  ic_prelu_plan(a, x, &na, &inner);
  return ic_cuda_dispatch_float(c, x->dtype, [&](auto z) {
    using T = decltype(z);
    prelu_kernel<T><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
        (T *)o->data, (const T *)x->data, (const T *)al->data, n, na, inner);
    return ic_cuda_launched(c, "prelu");
  });
}
