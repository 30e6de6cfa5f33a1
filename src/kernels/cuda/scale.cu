/* scale on the GPU: Out = scale * X + bias, or scale * (X + bias), with ScaleTensor and
 * BiasTensor (when given) read on the device. The scalars are converted to X's dtype and
 * the arithmetic done in it exactly as in cpu/scale.c (integers wrap). */
#include <type_traits>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/scale.h"
#include "kernels/cuda/fill.cuh"

template <typename T>
static __device__ inline T int_of(double v);
template <>
__device__ inline int32_t int_of<int32_t>(double v) { return ic_f64_to_i32(v); }
template <>
__device__ inline int64_t int_of<int64_t>(double v) { return ic_f64_to_i64(v); }

template <typename T>
__global__ void scale_kernel(T *__restrict__ o, const T *__restrict__ x, int64_t n,
                             ic_cuda_scalar sc_, ic_cuda_scalar bi_, bool after) {
  const ic_fill_scalar s = ic_cuda_scalar_value(sc_), b = ic_cuda_scalar_value(bi_);
  if constexpr (std::is_floating_point<T>::value) {
    const T sc = (T)s.f, bi = (T)b.f;
    if (after) {
      IC_CUDA_FOR(i, n) o[i] = sc * x[i] + bi;
    } else {
      IC_CUDA_FOR(i, n) o[i] = sc * (x[i] + bi);
    }
  } else {
    using U = typename std::make_unsigned<T>::type;
    const U sc = (U)(s.is_int ? (T)s.i : int_of<T>(s.f));
    const U bi = (U)(b.is_int ? (T)b.i : int_of<T>(b.f));
    if (after) {
      IC_CUDA_FOR(i, n) o[i] = (T)(sc * (U)x[i] + bi);
    } else {
      IC_CUDA_FOR(i, n) o[i] = (T)(sc * ((U)x[i] + bi));
    }
  }
}

extern "C" ic_status ic_cuda_scale(ic_kctx *c) {
  const scale_attrs *a = (const scale_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, IC_SCALE_X, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (n == 0) return IC_OK;
  ic_fill_scalar hs = {false, 0, a->scale}, hb = {false, 0, a->bias};
  const ic_cuda_scalar sc = ic_cuda_scalar_of(c, IC_SCALE_SCALE, hs);
  const ic_cuda_scalar bi = ic_cuda_scalar_of(c, IC_SCALE_BIAS, hb);
  return ic_cuda_dispatch_num(c, x->dtype, [&](auto z) {
    using T = decltype(z);
    scale_kernel<T><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
        (T *)o->data, (const T *)x->data, n, sc, bi, a->bias_after_scale);
    return ic_cuda_launched(c, "scale");
  });
}
