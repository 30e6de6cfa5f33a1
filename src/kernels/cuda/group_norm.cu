/* group_norm on the GPU (see cpu/group_norm.c): one block per (image, group); the sums of x
 * and x^2 in double (block reductions, so in another order than the CPU's), then every
 * element computed in double as the CPU does and rounded once. */
#include "kernels/cpu/group_norm.h"
#include "kernels/cuda/cuda_kit.cuh"

template <typename T>
__global__ void gn_k(const T *x, T *y, T *mean_out, T *var_out, const T *scale, const T *bias,
                     int64_t N, int64_t C, int64_t S, int64_t groups, int64_t G, bool nhwc,
                     double eps) {
  __shared__ double shared[32];
  const auto add = [](double u, double v) { return u + v; };
  for (int64_t r = blockIdx.x; r < N * groups; r += gridDim.x) {
    const int64_t n = r / groups, gi = r - n * groups;
    const int64_t c0 = gi * G, c1 = c0 + G < C ? c0 + G : C;
    const int64_t cnt = c1 > c0 ? (c1 - c0) * S : 0;
    double s = 0, s2 = 0;
    for (int64_t e = threadIdx.x; e < cnt; e += blockDim.x) {
      const int64_t ch = c0 + e / S, p = e % S;
      const double v = (double)x[nhwc ? (n * S + p) * C + ch : (n * C + ch) * S + p];
      s += v;
      s2 += v * v;
    }
    s = ic_cuda_block_reduce(s, add, shared);
    s2 = ic_cuda_block_reduce(s2, add, shared);
    const double mean = cnt ? s / (double)cnt : 0, m2 = cnt ? s2 / (double)cnt : 0;
    double var = m2 - mean * mean;
    if (var < 0) var = 0;
    const double inv = 1.0 / sqrt(var + eps);
    for (int64_t e = threadIdx.x; e < cnt; e += blockDim.x) {
      const int64_t ch = c0 + e / S, p = e % S;
      const int64_t q = nhwc ? (n * S + p) * C + ch : (n * C + ch) * S + p;
      const double k = inv * (scale ? (double)scale[ch] : 1.0), b = bias ? (double)bias[ch] : 0.0;
      y[q] = (T)(((double)x[q] - mean) * k + b);
    }
    if (threadIdx.x == 0) {
      if (mean_out) mean_out[r] = (T)mean;
      if (var_out) var_out[r] = (T)var;
    }
  }
}

static void *data_or_null(const ic_tensor *t) { return t ? t->data : NULL; }

template <typename T>
static ic_status run(ic_kctx *c, int64_t N, int64_t C, int64_t S, int64_t G) {
  const gn_attrs *a = (const gn_attrs *)c->attrs;
  gn_k<T><<<ic_cuda_row_blocks(N * a->groups), ic_cuda_row_threads(G * S), 0,
            ic_cuda_stream(c)>>>(
      (const T *)ic_in(c, IC_GN_X, 0)->data, (T *)ic_out(c, IC_GN_Y, 0)->data,
      (T *)data_or_null(ic_out(c, IC_GN_MEAN, 0)), (T *)data_or_null(ic_out(c, IC_GN_VAR, 0)),
      (const T *)data_or_null(ic_in(c, IC_GN_SCALE, 0)),
      (const T *)data_or_null(ic_in(c, IC_GN_BIAS, 0)), N, C, S, a->groups, G, a->nhwc,
      a->epsilon);
  return ic_cuda_launched(c, "gn_k");
}

extern "C" ic_status ic_cuda_group_norm(ic_kctx *c) {
  const gn_attrs *a = (const gn_attrs *)c->attrs;
  ic_status st = ic_cuda_need_env(c, false);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_GN_X, 0);
  const int64_t N = x->dims[0], C = a->nhwc ? x->dims[x->ndim - 1] : x->dims[1];
  if (N == 0 || C == 0) return IC_OK;
  const int64_t S = ic_numel(x->ndim, x->dims) / N / C;
  const int64_t G = (C - 1) / a->groups + 1;
  return x->dtype == IC_FP64 ? run<double>(c, N, C, S, G) : run<float>(c, N, C, S, G);
}
