/* softmax on the GPU, with the CPU kernel's numerics (see cpu/softmax.c): a NaN along the
 * axis wins the max, shifted logits are clipped from below at -64, exponentials are taken in
 * X's type, their sum in double, and each output is the quotient rounded once. Only the order
 * of the double sum differs from the CPU.
 *
 * Softmax over the last axis (inner == 1) runs one block per row with warp-shuffle
 * reductions; any other axis runs one thread per (outer, inner) column, which reads
 * neighbouring columns at once. */
#include "kernels/cpu/softmax.h"
#include "kernels/cuda/cuda_kit.cuh"

static __device__ inline float exp_t(float v) { return expf(v); }
static __device__ inline double exp_t(double v) { return exp(v); }

/* The CPU's max step: a NaN is sticky whatever the order. */
template <typename T>
static __device__ inline T max_nan(T a, T b) {
  return (b > a || isnan(b)) ? b : a;
}

template <typename T>
__global__ void softmax_rows(const T *x, T *y, int64_t rows, int64_t n) {
  __shared__ T smax[32];
  __shared__ double ssum[32];
  const T lo = (T)-64;
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T *xr = x + r * n;
    T *yr = y + r * n;
    T m = xr[0];
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) m = max_nan(m, xr[i]);
    m = ic_cuda_block_reduce(m, [](T a, T b) { return max_nan(a, b); }, smax);
    double s = 0;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
      const T d = xr[i] - m;
      const T e = exp_t(d < lo ? lo : d);
      yr[i] = e;
      s += (double)e;
    }
    s = ic_cuda_block_reduce(s, [](double a, double b) { return a + b; }, ssum);
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) yr[i] = (T)((double)yr[i] / s);
  }
}

template <typename T>
__global__ void softmax_columns(const T *x, T *y, int64_t outer, int64_t n, int64_t inner) {
  const T lo = (T)-64;
  IC_CUDA_FOR(col, outer * inner) {
    const int64_t o = col / inner, j = col % inner;
    const T *xc = x + o * n * inner + j;
    T *yc = y + o * n * inner + j;
    T m = xc[0];
    for (int64_t i = 1; i < n; i++) m = max_nan(m, xc[i * inner]);
    double s = 0;
    for (int64_t i = 0; i < n; i++) {
      const T d = xc[i * inner] - m;
      const T e = exp_t(d < lo ? lo : d);
      yc[i * inner] = e;
      s += (double)e;
    }
    for (int64_t i = 0; i < n; i++) yc[i * inner] = (T)((double)yc[i * inner] / s);
  }
}

template <typename T>
__global__ void set_one(T *y) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *y = (T)1;
}

template <typename T>
static ic_status launch(ic_kctx *c, const ic_tensor *x, ic_tensor *y, int64_t outer, int64_t n,
                        int64_t inner) {
  cudaStream_t s = ic_cuda_stream(c);
  const T *xp = (const T *)x->data;
  T *yp = (T *)y->data;
  if (x->ndim == 0) {
    set_one<T><<<1, 32, 0, s>>>(yp);
    return ic_cuda_launched(c, "softmax set_one");
  }
  if (inner == 1) {
    softmax_rows<T><<<ic_cuda_row_blocks(outer), ic_cuda_row_threads(n), 0, s>>>(xp, yp, outer,
                                                                                n);
    return ic_cuda_launched(c, "softmax_rows");
  }
  softmax_columns<T><<<ic_cuda_blocks(outer * inner), IC_CUDA_THREADS, 0, s>>>(xp, yp, outer, n,
                                                                            inner);
  return ic_cuda_launched(c, "softmax_columns");
}

extern "C" ic_status ic_cuda_softmax(ic_kctx *c) {
  const softmax_attrs *a = (const softmax_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  ic_status st = ic_cuda_need_env(c, false);
  if (st) return st;
  if (ic_numel(x->ndim, x->dims) == 0) return IC_OK;
  int64_t outer = 1, inner = 1, n = 1;
  if (x->ndim > 0) {
    const int axis = ic_kaxis(c, a->axis, x->ndim, "axis"); /* infer has checked it */
    if (axis < 0) return c->err->code;
    n = x->dims[axis];
    for (int i = 0; i < axis; i++) outer *= x->dims[i];
    for (int i = axis + 1; i < x->ndim; i++) inner *= x->dims[i];
  }
  return x->dtype == IC_FP64 ? launch<double>(c, x, y, outer, n, inner)
                             : launch<float>(c, x, y, outer, n, inner);
}
