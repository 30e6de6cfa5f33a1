/* gather on the GPU: Out = X's slices at the positions in Index (int32 or int64, on the
 * device) along the axis of cpu/gather.c (ic_gather_axis: the attribute, or the Axis input,
 * which stays on the host). One grid-stride kernel over the output elements moving elements
 * of 1, 2, 4 or 8 bytes, bit for bit the CPU's copy. Difference from the CPU kernel: an index
 * outside [0, dim) cannot fail on the device (the CPU scans Index first and fails); its
 * slice is written as zeros. */
#include "kernels/cpu/shapeops.h"
#include "kernels/cuda/cuda_util.cuh"

namespace {

template <typename T, typename J>
__global__ void gather_kernel(T *__restrict__ o, const T *__restrict__ x,
                              const J *__restrict__ idx, int64_t total, int64_t n, int64_t dim,
                              int64_t inner) {
  IC_CUDA_FOR(i, total) {
    const int64_t j = i % inner, t = i / inner, k = t % n, r = t / n;
    const int64_t v = (int64_t)idx[k];
    o[i] = (v >= 0 && v < dim) ? x[(r * dim + v) * inner + j] : T(0);
  }
}

}  // namespace

extern "C" ic_status ic_cuda_gather(ic_kctx *c) {
  int axis;
  ic_status st = ic_gather_axis(c, &axis);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_numel(idx->ndim, idx->dims), dim = x->dims[axis];
  const int64_t outer = ic_numel(axis, x->dims);
  const int64_t inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  const int64_t total = outer * n * inner;
  if (total == 0) return IC_OK;
  const size_t es = ic_dtype_size(x->dtype);
  const unsigned blocks = ic_cuda_blocks(total);
  cudaStream_t s = ic_cuda_stream(c);
  auto launch = [&](auto z) {
    using T = decltype(z);
    if (idx->dtype == IC_INT32) {
      gather_kernel<T, int32_t><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (T *)o->data, (const T *)x->data, (const int32_t *)idx->data, total, n, dim, inner);
    } else {
      gather_kernel<T, int64_t><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (T *)o->data, (const T *)x->data, (const int64_t *)idx->data, total, n, dim, inner);
    }
    return ic_cuda_launched(c, "gather");
  };
  switch (es) {
    case 1: return launch(uint8_t());
    case 2: return launch(uint16_t());
    case 4: return launch(uint32_t());
    case 8: return launch(uint64_t());
    default:
      return ic_kfail_in(c, 0, 0, "has an element size of %zu bytes, not supported on the GPU",
                         es);
  }
}
