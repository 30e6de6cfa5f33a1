/* clip on the GPU: Out = min(max(X, min), max), with the Min and Max tensors (when given)
 * read on the device and every bound converted to X's dtype as in cpu/clip.c. min > max
 * fails on the host when both bounds are attributes, as on the CPU; with a bound tensor the
 * device cannot fail, and computes X < min ? min : X > max ? max : X as the CPU loop would. */
#include "kernels/cpu/clip.h"
#include "kernels/cuda/fill.cuh"

template <typename T>
static __device__ inline T bound_as(ic_fill_scalar s);
template <>
__device__ inline float bound_as<float>(ic_fill_scalar s) { return ic_clip_f32(s); }
template <>
__device__ inline double bound_as<double>(ic_fill_scalar s) { return ic_clip_f64(s); }
template <>
__device__ inline int32_t bound_as<int32_t>(ic_fill_scalar s) { return ic_clip_i32(s); }
template <>
__device__ inline int64_t bound_as<int64_t>(ic_fill_scalar s) { return ic_clip_i64(s); }

template <typename T>
__global__ void clip_kernel(T *__restrict__ o, const T *__restrict__ x, int64_t n,
                            ic_cuda_scalar lo_, ic_cuda_scalar hi_) {
  const T lo = bound_as<T>(ic_cuda_scalar_value(lo_)), hi = bound_as<T>(ic_cuda_scalar_value(hi_));
  IC_CUDA_FOR(i, n) {
    const T v = x[i];
    o[i] = v < lo ? lo : v > hi ? hi : v;
  }
}

extern "C" ic_status ic_cuda_clip(ic_kctx *c) {
  const clip_attrs *a = (const clip_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, IC_CLIP_X, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  ic_status st = ic_clip_check_attr_bounds(c);
  const int64_t n = ic_tensor_numel_(x);
  if (st || n == 0) return st;
  const ic_cuda_scalar lo = ic_cuda_scalar_of(c, IC_CLIP_MIN, ic_clip_attr_bound(a->min));
  const ic_cuda_scalar hi = ic_cuda_scalar_of(c, IC_CLIP_MAX, ic_clip_attr_bound(a->max));
  return ic_cuda_dispatch_num(c, x->dtype, [&](auto z) {
    using T = decltype(z);
    clip_kernel<T><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
        (T *)o->data, (const T *)x->data, n, lo, hi);
    return ic_cuda_launched(c, "clip");
  });
}
