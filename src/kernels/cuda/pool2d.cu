/* pool2d on the GPU (see cpu/pool2d.c for Paddle's semantics): one thread per output element
 * computing its window statement for statement as Paddle's Pool2dFunctor (and the CPU's
 * loops) do, the same order of additions included; or, built with cuDNN and unless
 * ICORE_CUDNN=0, cudnnPoolingForward where cuDNN's windows are Paddle's: not adaptive,
 * symmetric paddings giving Paddle's output size by cuDNN's formula, no window entirely in
 * the padding (Paddle gives -FLT_MAX or 0/0 there) and int-sized tensors. Max pooling is
 * exact either way; cuDNN's averages may sum in another order. An empty input with a non-empty
 * output gives NaN, as Paddle's kernel does. */
#include <cfloat>
#include <cmath>

#include "kernels/cpu/pool2d.h"
#include "kernels/cuda/cuda_kit.cuh"
#include "kernels/cuda/cuconv.h"
#ifdef IC_WITH_CUDNN
#include <cudnn.h>
#endif

template <typename T>
__global__ void pool_direct(const T *x, T *y, ic_pool_geom g, bool max, bool exclusive,
                            bool adaptive, bool nhwc) {
  const int64_t H = g.h, W = g.w, C = g.c;
  IC_CUDA_FOR(i, g.n * C * g.oh * g.ow) {
    int64_t n, ch, ph, pw;
    if (nhwc) {
      ch = i % C;
      pw = (i / C) % g.ow;
      ph = (i / (C * g.ow)) % g.oh;
      n = i / (C * g.ow * g.oh);
    } else {
      pw = i % g.ow;
      ph = (i / g.ow) % g.oh;
      ch = (i / (g.ow * g.oh)) % C;
      n = i / (g.ow * g.oh * C);
    }
    int64_t hs, he, ws, we, size;
    if (adaptive) {
      hs = ph * H / g.oh;
      he = ((ph + 1) * H + g.oh - 1) / g.oh;
      ws = pw * W / g.ow;
      we = ((pw + 1) * W + g.ow - 1) / g.ow;
      size = (he - hs) * (we - ws);
    } else {
      hs = ph * g.sh - g.pt;
      ws = pw * g.sw - g.pl;
      he = hs + g.kh < H + g.pt ? hs + g.kh : H + g.pt;
      we = ws + g.kw < W + g.pl ? ws + g.kw : W + g.pl;
      size = (he - hs) * (we - ws);
      if (hs < 0) hs = 0;
      if (ws < 0) ws = 0;
      if (he > H) he = H;
      if (we > W) we = W;
      if (max || exclusive) size = (he - hs) * (we - ws);
    }
    T v = max ? (T)-FLT_MAX : (T)0;
    for (int64_t ih = hs; ih < he; ih++) {
      for (int64_t iw = ws; iw < we; iw++) {
        const T e = nhwc ? x[((n * H + ih) * W + iw) * C + ch]
                         : x[((n * C + ch) * H + ih) * W + iw];
        if (max) v = v > e ? v : e;
        else v += e;
      }
    }
    if (!max) v = v / (T)size;
    y[i] = v;
  }
}

template <typename T>
__global__ void fill_nan(T *y, int64_t n) {
  IC_CUDA_FOR(i, n) y[i] = (T)NAN;
}

#ifdef IC_WITH_CUDNN
/* cuDNN pooling when its windows are Paddle's; *declined otherwise (nothing launched). */
static ic_status pool_cudnn(ic_kctx *c, const ic_pool_geom *g, bool *declined) {
  const pool_attrs *a = (const pool_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  *declined = true;
  if (a->adaptive || g->pt != g->pb || g->pl != g->pr) return IC_OK;
  if (g->n * g->c * g->h * g->w > INT32_MAX || g->oh < 1 || g->ow < 1) return IC_OK;
  const int64_t in[2] = {g->h, g->w}, k[2] = {g->kh, g->kw}, s[2] = {g->sh, g->sw};
  const int64_t p[2] = {g->pt, g->pl}, out[2] = {g->oh, g->ow};
  for (int d = 0; d < 2; d++) {
    if (p[d] >= k[d] || in[d] + 2 * p[d] < k[d]) return IC_OK; /* windows in the padding */
    if ((in[d] + 2 * p[d] - k[d]) / s[d] + 1 != out[d]) return IC_OK;
    if ((out[d] - 1) * s[d] - p[d] >= in[d]) return IC_OK;
  }
  const cudnnDataType_t dt = x->dtype == IC_FP64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
  const cudnnTensorFormat_t fmt = a->nhwc ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
  const cudnnPoolingMode_t mode = a->max ? CUDNN_POOLING_MAX_DETERMINISTIC
                                  : a->exclusive ? CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING
                                                 : CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
  cudnnTensorDescriptor_t xd = NULL, yd = NULL;
  cudnnPoolingDescriptor_t pd = NULL;
  cudnnStatus_t e;
  const char *what = "cudnnCreateTensorDescriptor";
  ic_status st = IC_OK;
  if ((e = cudnnCreateTensorDescriptor(&xd)) == CUDNN_STATUS_SUCCESS &&
      (e = cudnnCreateTensorDescriptor(&yd)) == CUDNN_STATUS_SUCCESS &&
      (what = "cudnnCreatePoolingDescriptor",
       e = cudnnCreatePoolingDescriptor(&pd)) == CUDNN_STATUS_SUCCESS &&
      (what = "cudnnSetTensor4dDescriptor",
       e = cudnnSetTensor4dDescriptor(xd, fmt, dt, (int)g->n, (int)g->c, (int)g->h,
                                      (int)g->w)) == CUDNN_STATUS_SUCCESS &&
      (e = cudnnSetTensor4dDescriptor(yd, fmt, dt, (int)g->n, (int)g->c, (int)g->oh,
                                      (int)g->ow)) == CUDNN_STATUS_SUCCESS &&
      (what = "cudnnSetPooling2dDescriptor",
       e = cudnnSetPooling2dDescriptor(pd, mode, CUDNN_NOT_PROPAGATE_NAN, (int)g->kh, (int)g->kw,
                                       (int)g->pt, (int)g->pl, (int)g->sh, (int)g->sw)) ==
          CUDNN_STATUS_SUCCESS) {
    const double one64 = 1.0, zero64 = 0.0;
    const float one32 = 1.0f, zero32 = 0.0f;
    const bool f64 = x->dtype == IC_FP64;
    what = "cudnnPoolingForward";
    e = cudnnPoolingForward((cudnnHandle_t)c->env->dnn, pd,
                            f64 ? (const void *)&one64 : (const void *)&one32, xd, x->data,
                            f64 ? (const void *)&zero64 : (const void *)&zero32, yd, y->data);
  }
  if (e == CUDNN_STATUS_SUCCESS) {
    *declined = false;
  } else if (e != CUDNN_STATUS_NOT_SUPPORTED && e != CUDNN_STATUS_BAD_PARAM) {
    *declined = false;
    st = ic_kfail(c, IC_ERR_DEVICE, "cuDNN %s failed: %s", what, cudnnGetErrorString(e));
  }
  if (pd) cudnnDestroyPoolingDescriptor(pd);
  if (yd) cudnnDestroyTensorDescriptor(yd);
  if (xd) cudnnDestroyTensorDescriptor(xd);
  return st;
}
#endif

template <typename T>
static ic_status run(ic_kctx *c, const ic_pool_geom *g) {
  const pool_attrs *a = (const pool_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  const int64_t ny = ic_tensor_numel_(y);
  cudaStream_t s = ic_cuda_stream(c);
  if (ic_tensor_numel_(x) == 0) {
    fill_nan<T><<<ic_cuda_blocks(ny), IC_CUDA_THREADS, 0, s>>>((T *)y->data, ny);
    return ic_cuda_launched(c, "fill_nan");
  }
#ifdef IC_WITH_CUDNN
  if (ic_cuconv_use_cudnn(c)) {
    bool declined = false;
    ic_status st = pool_cudnn(c, g, &declined);
    if (st || !declined) return st;
  }
#endif
  pool_direct<T><<<ic_cuda_blocks(ny), IC_CUDA_THREADS, 0, s>>>(
      (const T *)x->data, (T *)y->data, *g, a->max, a->exclusive, a->adaptive && !a->max,
      a->nhwc);
  return ic_cuda_launched(c, "pool_direct");
}

extern "C" ic_status ic_cuda_pool2d(ic_kctx *c) {
  ic_status st = ic_cuda_need_env(c, false);
  if (st) return st;
  ic_pool_geom g;
  if ((st = ic_pool_geometry(c, &g))) return st;
  if (ic_tensor_numel_(ic_out(c, 0, 0)) == 0) return IC_OK;
  return ic_in(c, 0, 0)->dtype == IC_FP64 ? run<double>(c, &g) : run<float>(c, &g);
}
