/* arg_max / arg_min on the GPU (see cpu/arg_minmax.c): one thread per output element scans
 * its line in order, keeping the first extreme, exactly as the CPU kernel does. */
#include "kernels/cpu/arg_minmax.h"
#include "kernels/cuda/cuargmm.h"
#include "kernels/cuda/cuda_kit.cuh"

namespace {

template <typename T, typename I>
__global__ void scan_k(const T *x, I *out, int64_t outer, int64_t len, int64_t inner,
                       bool max) {
  IC_CUDA_FOR(e, outer * inner) {
    const int64_t o = e / inner, i = e - o * inner;
    const T *q = x + o * len * inner + i;
    T best = q[0];
    int64_t bi = 0;
    for (int64_t k = 1; k < len; k++) {
      const T v = q[k * inner];
      if (max ? v > best : v < best) best = v, bi = k;
    }
    out[e] = (I)bi;
  }
}

template <typename T>
ic_status launch(ic_kctx *c, const ic_tensor *x, ic_tensor *out, int64_t outer, int64_t len,
                 int64_t inner, bool max) {
  const unsigned b = ic_cuda_blocks(outer * inner);
  if (out->dtype == IC_INT64) {
    scan_k<T, int64_t><<<b, IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
        (const T *)x->data, (int64_t *)out->data, outer, len, inner, max);
  } else {
    scan_k<T, int32_t><<<b, IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
        (const T *)x->data, (int32_t *)out->data, outer, len, inner, max);
  }
  return ic_cuda_launched(c, "arg scan");
}

}  // namespace

extern "C" ic_status ic_cuargmm_run(ic_kctx *c, bool max) {
  const ic_argmm_attrs *a = (const ic_argmm_attrs *)c->attrs;
  ic_status st = ic_cuda_need_env(c, false);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int64_t outer = 1, len = 1, inner = 1;
  if (a->flatten || x->ndim == 0) {
    len = ic_numel(x->ndim, x->dims);
  } else {
    const int ax = ic_kaxis(c, a->axis, x->ndim, "axis");
    if (ax < 0) return c->err->code;
    for (int i = 0; i < ax; i++) outer *= x->dims[i];
    len = x->dims[ax];
    for (int i = ax + 1; i < x->ndim; i++) inner *= x->dims[i];
  }
  if (a->dtype == IC_INT32 && len > INT32_MAX) {
    return ic_kfail_in(c, 0, 0, "has %lld elements to search, more than dtype int32 can index",
                       (long long)len);
  }
  if (outer * inner == 0 || len == 0) return IC_OK;
  switch (x->dtype) {
    case IC_FP32: return launch<float>(c, x, out, outer, len, inner, max);
    case IC_FP64: return launch<double>(c, x, out, outer, len, inner, max);
    case IC_INT32: return launch<int32_t>(c, x, out, outer, len, inner, max);
    case IC_INT64: return launch<int64_t>(c, x, out, outer, len, inner, max);
    case IC_INT16: return launch<int16_t>(c, x, out, outer, len, inner, max);
    case IC_INT8: return launch<int8_t>(c, x, out, outer, len, inner, max);
    default: return launch<uint8_t>(c, x, out, outer, len, inner, max);
  }
}
