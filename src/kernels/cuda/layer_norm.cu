/* layer_norm on the GPU (see cpu/layer_norm.c): one block per row of X viewed as
 * [left, right]; mean and biased variance in double (two passes, block reductions), every
 * element computed in double as the CPU does (no fused multiply-adds: -fmad=false) and
 * rounded once.
 * Only the order of the two sums differs from the CPU. */
#include "kernels/cpu/layer_norm.h"
#include "kernels/cuda/cuda_kit.cuh"

enum { IN_X, IN_SCALE, IN_BIAS };
enum { OUT_Y, OUT_MEAN, OUT_VAR };

template <typename T>
__global__ void ln_rows(const T *x, T *y, T *mean_out, T *var_out, const T *scale,
                        const T *bias, int64_t left, int64_t right, double eps) {
  __shared__ double shared[32];
  const auto add = [](double u, double v) { return u + v; };
  for (int64_t r = blockIdx.x; r < left; r += gridDim.x) {
    const T *xp = x + r * right;
    T *yp = y + r * right;
    double s = 0;
    for (int64_t i = threadIdx.x; i < right; i += blockDim.x) s += (double)xp[i];
    s = ic_cuda_block_reduce(s, add, shared);
    const double m = right ? s / (double)right : 0;
    double v = 0;
    for (int64_t i = threadIdx.x; i < right; i += blockDim.x) {
      const double d = (double)xp[i] - m;
      v += d * d;
    }
    v = ic_cuda_block_reduce(v, add, shared);
    v = right ? v / (double)right : 0;
    const double inv = 1.0 / sqrt(v + eps);
    for (int64_t i = threadIdx.x; i < right; i += blockDim.x) {
      double t = ((double)xp[i] - m) * inv;
      if (scale) t *= (double)scale[i];
      if (bias) t += (double)bias[i];
      yp[i] = (T)t;
    }
    if (threadIdx.x == 0) {
      if (mean_out) mean_out[r] = (T)m;
      if (var_out) var_out[r] = (T)v;
    }
  }
}

static void *data_or_null(const ic_tensor *t) { return t ? t->data : NULL; }

template <typename T>
static ic_status run(ic_kctx *c, int64_t left, int64_t right, double eps) {
  ln_rows<T><<<ic_cuda_row_blocks(left), ic_cuda_row_threads(right), 0, ic_cuda_stream(c)>>>(
      (const T *)ic_in(c, IN_X, 0)->data, (T *)ic_out(c, OUT_Y, 0)->data,
      (T *)data_or_null(ic_out(c, OUT_MEAN, 0)), (T *)data_or_null(ic_out(c, OUT_VAR, 0)),
      (const T *)data_or_null(ic_in(c, IN_SCALE, 0)), (const T *)data_or_null(ic_in(c, IN_BIAS, 0)),
      left, right, eps);
  return ic_cuda_launched(c, "ln_rows");
}

extern "C" ic_status ic_cuda_layer_norm(ic_kctx *c) {
  const ln_attrs *a = (const ln_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_cuda_need_env(c, false);
  if (st) return st;
  const int64_t left = ic_numel((int)a->begin_norm_axis, x->dims);
  const int64_t right = ic_numel(x->ndim - (int)a->begin_norm_axis, x->dims + a->begin_norm_axis);
  if (left == 0) return IC_OK;
  return x->dtype == IC_FP64 ? run<double>(c, left, right, a->epsilon)
                             : run<float>(c, left, right, a->epsilon);
}
