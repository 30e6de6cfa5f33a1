/* The unary activations on the GPU: one grid-stride kernel per (formula, dtype) computing
 * the same scalar function as the CPU kernel (cpu/activation.h), so results differ only
 * where CUDA's math library rounds differently from the host's (expf, tanhf, erff: a few
 * ulp). An op file is one line:
 *
 *   IC_CUDA_ACTIVATION(relu, ic_noattrs, relu_f32, relu_f64)
 */
#ifndef IC_KERNELS_CUDA_ACTIVATION_CUH
#define IC_KERNELS_CUDA_ACTIVATION_CUH

#include "kernels/cpu/activation.h"
#include "kernels/cuda/cuda_util.cuh"

/* Out[i] = fn(X[i]); fn holds the op's attributes by value. */
template <typename T, typename Fn>
__global__ void ic_cuda_unary_kernel(T *__restrict__ o, const T *__restrict__ x, int64_t n,
                                     Fn fn) {
  IC_CUDA_FOR(i, n) o[i] = fn(x[i]);
}

/* Launch fn over input X (slot 0) into Out (slot 0) for float32 and float64, and also int32
 * and int64 when Num. */
template <bool Num, typename Fn>
static ic_status ic_cuda_unary(ic_kctx *c, Fn fn) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (n == 0) return IC_OK;
  auto launch = [&](auto z) {
    using T = decltype(z);
    ic_cuda_unary_kernel<T, Fn><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
        (T *)o->data, (const T *)x->data, n, fn);
    return ic_cuda_launched(c, c->def->name);
  };
  if constexpr (Num) return ic_cuda_dispatch_num(c, x->dtype, launch);
  else return ic_cuda_dispatch_float(c, x->dtype, launch);
}

/* Defines ic_cuda_NAME for an activation whose formulas F32 / F64 take (x, const ATTRS *). */
#define IC_CUDA_ACTIVATION(NAME, ATTRS, F32, F64)                                          \
  namespace {                                                                              \
  struct NAME##_fn {                                                                       \
    ATTRS a;                                                                               \
    __device__ float operator()(float x) const { return F32(x, &a); }                      \
    __device__ double operator()(double x) const { return F64(x, &a); }                    \
  };                                                                                       \
  }                                                                                        \
  extern "C" ic_status ic_cuda_##NAME(ic_kctx *c) {                                        \
    return ic_cuda_unary<false>(c, NAME##_fn{*(const ATTRS *)c->attrs});                           \
  }

#endif
