/* batch_norm on the GPU, the CPU kernel's two forms (see cpu/batch_norm.c):
 *
 * Inference (global statistics): a = Scale / sqrt(Variance + eps) and b = Bias - Mean * a per
 * channel in double, rounded to X's type, then y = x * a + b in X's type (no fused
 * multiply-add: the CUDA sources build with -fmad=false): bitwise the CPU's result.
 * MeanOut/VarianceOut share Mean/Variance and SavedMean/SavedVariance stay empty, as on the
 * CPU.
 *
 * Training: one block per channel takes the batch mean and biased variance in double (two
 * passes, as the CPU; only the summation order differs), updates the running statistics with
 * the momentum and writes SavedMean and SavedVariance (the inverse std), then the same
 * per-element pass. A batch of one element per channel copies X. The statistics outputs get
 * buffers from the environment's (device) allocator: there is no device counterpart of the
 * CPU's system allocator for persistables. */
#include "kernels/cpu/batch_norm.h"
#include "kernels/cuda/cuda_kit.cuh"

enum { IN_X, IN_SCALE, IN_BIAS, IN_MEAN, IN_VAR };
enum { OUT_Y, OUT_MEAN, OUT_VAR, OUT_SMEAN, OUT_SVAR };

/* a = scale / sqrt(var + eps), b = bias - mean * a, in double, rounded to T. */
template <typename T>
static __device__ inline void coef(double s, double b, double mean, double var, double eps,
                                   T *at, T *bt) {
  const double inv = 1.0 / sqrt(var + eps);
  const double ad = s * inv;
  *at = (T)ad;
  *bt = (T)(b - mean * ad);
}

template <typename T>
__global__ void bn_coef_global(const T *scale, const T *bias, const T *mean, const T *var,
                               int64_t C, double eps, T *at, T *bt) {
  IC_CUDA_FOR(ch, C) {
    coef<T>(scale ? (double)scale[ch] : 1.0, bias ? (double)bias[ch] : 0.0, (double)mean[ch],
            (double)var[ch], eps, at + ch, bt + ch);
  }
}

/* Element r of channel ch among the N * S elements of that channel. */
static __device__ inline int64_t chan_index(int64_t r, int64_t ch, int64_t C, int64_t S,
                                            bool nhwc) {
  return nhwc ? r * C + ch : ((r / S) * C + ch) * S + r % S;
}

template <typename T>
__global__ void bn_stats(const T *x, int64_t N, int64_t C, int64_t S, bool nhwc, const T *scale,
                         const T *bias, const T *rmean, const T *rvar, double eps, double mom,
                         T *mean_out, T *var_out, T *saved_mean, T *saved_var, T *at, T *bt) {
  __shared__ double shared[32];
  const int64_t cnt = N * S;
  const auto add = [](double u, double v) { return u + v; };
  for (int64_t ch = blockIdx.x; ch < C; ch += gridDim.x) {
    double s = 0;
    for (int64_t r = threadIdx.x; r < cnt; r += blockDim.x) {
      s += (double)x[chan_index(r, ch, C, S, nhwc)];
    }
    const double mean = ic_cuda_block_reduce(s, add, shared) / (double)cnt;
    double v = 0;
    for (int64_t r = threadIdx.x; r < cnt; r += blockDim.x) {
      const double d = (double)x[chan_index(r, ch, C, S, nhwc)] - mean;
      v += d * d;
    }
    const double var = ic_cuda_block_reduce(v, add, shared) / (double)cnt;
    if (threadIdx.x == 0) {
      if (mean_out) mean_out[ch] = (T)((double)rmean[ch] * mom + mean * (1 - mom));
      if (var_out) var_out[ch] = (T)((double)rvar[ch] * mom + var * (1 - mom));
      if (saved_mean) saved_mean[ch] = (T)mean;
      if (saved_var) saved_var[ch] = (T)(1.0 / sqrt(var + eps));
      coef<T>(scale ? (double)scale[ch] : 1.0, bias ? (double)bias[ch] : 0.0, mean, var, eps,
              at + ch, bt + ch);
    }
  }
}

template <typename T>
__global__ void bn_apply(const T *x, T *y, int64_t total, int64_t C, int64_t S, bool nhwc,
                         const T *at, const T *bt) {
  IC_CUDA_FOR(i, total) {
    const int64_t ch = nhwc ? i % C : (i / S) % C;
    y[i] = x[i] * at[ch] + bt[ch];
  }
}

static const void *data_of(const ic_tensor *t) { return t ? t->data : NULL; }
static void *mdata_of(ic_tensor *t) { return t ? t->data : NULL; }

template <typename T>
static ic_status run(ic_kctx *c, bool global, int64_t N, int64_t C, int64_t S) {
  const bn_attrs *a = (const bn_attrs *)c->attrs;
  cudaStream_t s = ic_cuda_stream(c);
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const T *scale = (const T *)data_of(ic_in(c, IN_SCALE, 0));
  const T *bias = (const T *)data_of(ic_in(c, IN_BIAS, 0));
  const T *rmean = (const T *)ic_in(c, IN_MEAN, 0)->data;
  const T *rvar = (const T *)ic_in(c, IN_VAR, 0)->data;
  void *scratch = NULL;
  ic_status st = ic_cuda_scratch(c, 2 * (size_t)C * sizeof(T), &scratch);
  if (st) return st;
  T *at = (T *)scratch, *bt = at + C;
  if (global) {
    bn_coef_global<T><<<ic_cuda_blocks(C), IC_CUDA_THREADS, 0, s>>>(scale, bias, rmean, rvar, C,
                                                                 a->epsilon, at, bt);
    st = ic_cuda_launched(c, "bn_coef_global");
  } else {
    bn_stats<T><<<ic_cuda_row_blocks(C), ic_cuda_row_threads(N * S), 0, s>>>(
        (const T *)x->data, N, C, S, a->nhwc, scale, bias, rmean, rvar, a->epsilon, a->momentum,
        (T *)mdata_of(ic_out(c, OUT_MEAN, 0)), (T *)mdata_of(ic_out(c, OUT_VAR, 0)),
        (T *)mdata_of(ic_out(c, OUT_SMEAN, 0)), (T *)mdata_of(ic_out(c, OUT_SVAR, 0)), at, bt);
    st = ic_cuda_launched(c, "bn_stats");
  }
  if (!st) {
    const int64_t total = N * C * S;
    bn_apply<T><<<ic_cuda_blocks(total), IC_CUDA_THREADS, 0, s>>>(
        (const T *)x->data, (T *)ic_out(c, OUT_Y, 0)->data, total, C, S, a->nhwc, at, bt);
    st = ic_cuda_launched(c, "bn_apply");
  }
  return ic_cuda_scratch_free(c, scratch, st);
}

/* dst = src on the device (same dtype and size), when dst is wanted. */
static ic_status copy_if(ic_kctx *c, ic_tensor *dst, const ic_tensor *src, size_t bytes,
                         const char *what) {
  if (!dst) return IC_OK;
  return ic_cuda_check(c, cudaMemcpyAsync(dst->data, src->data, bytes, cudaMemcpyDeviceToDevice,
                                        ic_cuda_stream(c)),
                     what);
}
static ic_status zero_if(ic_kctx *c, ic_tensor *dst, size_t bytes, const char *what) {
  if (!dst) return IC_OK;
  return ic_cuda_check(c, cudaMemsetAsync(dst->data, 0, bytes, ic_cuda_stream(c)), what);
}

extern "C" ic_status ic_cuda_batch_norm(ic_kctx *c) {
  const bn_attrs *a = (const bn_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rmean = ic_in(c, IN_MEAN, 0),
                  *rvar = ic_in(c, IN_VAR, 0);
  ic_tensor *mean_out = ic_out(c, OUT_MEAN, 0), *var_out = ic_out(c, OUT_VAR, 0),
            *saved_mean = ic_out(c, OUT_SMEAN, 0), *saved_var = ic_out(c, OUT_SVAR, 0);
  ic_status st = ic_cuda_need_env(c, false);
  if (st) return st;
  const int64_t N = x->dims[0], C = a->nhwc ? x->dims[x->ndim - 1] : x->dims[1];
  const int64_t S = ic_tensor_numel_(x) / N / C; /* infer has checked every dim > 0 */
  const size_t cbytes = (size_t)C * ic_dtype_size(x->dtype);
  if (a->global_stats) {
    if (mean_out) ic_tensor_share(mean_out, rmean);
    if (var_out) ic_tensor_share(var_out, rvar);
    if (saved_mean) ic_tensor_reset(saved_mean);
    if (saved_var) ic_tensor_reset(saved_var);
  } else {
    ic_tensor *own[] = {mean_out, var_out, saved_mean, saved_var};
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++) {
      if (own[k] && (st = ic_tensor_alloc(own[k], c->env->alloc, c->err))) return st;
    }
    if (N * S == 1) {
      /* As on the CPU: y = x, running statistics unchanged, saved statistics zero. */
      if ((st = copy_if(c, ic_out(c, OUT_Y, 0), x, cbytes, "cudaMemcpyAsync of X to Y")) ||
          (st = copy_if(c, mean_out, rmean, cbytes, "cudaMemcpyAsync of Mean to MeanOut")) ||
          (st = copy_if(c, var_out, rvar, cbytes, "cudaMemcpyAsync of Variance to VarianceOut")) ||
          (st = zero_if(c, saved_mean, cbytes, "cudaMemsetAsync of SavedMean")) ||
          (st = zero_if(c, saved_var, cbytes, "cudaMemsetAsync of SavedVariance"))) {
        return st;
      }
      return IC_OK;
    }
  }
  return x->dtype == IC_FP64 ? run<double>(c, a->global_stats, N, C, S)
                             : run<float>(c, a->global_stats, N, C, S);
}
