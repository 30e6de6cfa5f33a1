/* conv2d and depthwise_conv2d on the GPU (see cpu/conv.h and cpu/conv.c for Paddle's
 * semantics): Output = act(conv(Input, Filter) + Bias + ResidualData).
 *
 * Two implementations, chosen per call:
 *  - cuDNN (built with IC_WITH_CUDNN, a cuDNN handle in the environment, and the environment
 *    variable ICORE_CUDNN not "0"): NCHW data goes to cudnnConvolutionForward as it is;
 *    NHWC data is transposed to NCHW around it (as Paddle does for float32 cuDNN
 *    convolutions). float32 is restricted to FMA math (no TF32 tensor cores). relu with a
 *    bias on NCHW data runs cuDNN's fused cudnnConvolutionBiasActivationForward (Z =
 *    ResidualData when fused); everything else runs the plain convolution and then one
 *    pointwise kernel for Bias, ResidualData and the activation. cuDNN declines asymmetric
 *    paddings, Paddle's truncated output sizes (a window overhanging the padding), tensors
 *    beyond int sizes and configurations it has no algorithm for: those, and ICORE_CUDNN=0,
 *    run the other implementation.
 *  - im2col + cuBLAS: per image, an im2col kernel (none for 1x1 stride-1 unpadded windows)
 *    and one strided-batched GEMM over the groups, then the same pointwise kernel (which
 *    also transposes NHWC output).
 * Which is faster on a given GPU has not been measured: cuDNN is the default because it is
 * the library made for it. The pointwise kernel adds Bias and ResidualData in X's type and
 * applies the activation in double with the CPU's formulas (ic_conv_act_apply). */
#include <cstdlib>
#include <cstring>

#include "kernels/cpu/conv.h"
#include "kernels/cuda/cuda_kit.cuh"
#include "kernels/cuda/cugemm.h"
#include "kernels/cuda/cuconv.h"
#ifdef IC_WITH_CUDNN
#include <cudnn.h>
#endif

bool ic_cuconv_use_cudnn(const ic_kctx *c) {
#ifdef IC_WITH_CUDNN
  if (!c->env || !c->env->dnn) return false;
  const char *e = getenv("ICORE_CUDNN");
  return !(e && strcmp(e, "0") == 0);
#else
  (void)c;
  return false;
#endif
}

/* ---- pointwise kernels ---- */

/* y[i] = act(src + bias[oc] + res[i]) for y in its layout (NCHW, or NHWC when nhwc), src
 * the NCHW convolution (src may be y itself when NCHW: every element reads its own). */
template <typename T>
__global__ void conv_epilogue(const T *src, T *y, int64_t total, int64_t oc_n, int64_t ohw,
                              bool nhwc, const T *bias, const T *res, int act, double alpha,
                              double beta) {
  IC_CUDA_FOR(i, total) {
    int64_t n, oc, p;
    if (nhwc) {
      oc = i % oc_n;
      p = (i / oc_n) % ohw;
      n = i / (oc_n * ohw);
    } else {
      p = i % ohw;
      oc = (i / ohw) % oc_n;
      n = i / (oc_n * ohw);
    }
    T s = src[(n * oc_n + oc) * ohw + p];
    if (bias) s = s + bias[oc];
    if (res) s = s + res[i];
    if (act != IC_ACT_NONE) s = (T)ic_conv_act_apply((ic_conv_act)act, alpha, beta, (double)s);
    y[i] = s;
  }
}

/* NHWC -> NCHW copy of x [n, h, w, c]. */
template <typename T>
__global__ void nhwc_to_nchw(const T *x, T *y, int64_t n, int64_t c, int64_t hw) {
  IC_CUDA_FOR(i, n * c * hw) {
    const int64_t p = i % hw, ch = (i / hw) % c, b = i / (hw * c);
    y[i] = x[(b * hw + p) * c + ch];
  }
}

/* col[(ch * kh + ky) * kw + kx][oy * ow + ox] = x[ch][iy][ix] (0 outside) for one image of
 * c channels. */
template <typename T>
__global__ void im2col(const T *x, T *col, int64_t c, int64_t h, int64_t w, int64_t kh,
                       int64_t kw, int64_t oh, int64_t ow, int64_t sh, int64_t sw, int64_t pt,
                       int64_t pl, int64_t dh, int64_t dw) {
  const int64_t ohw = oh * ow;
  IC_CUDA_FOR(i, c * kh * kw * ohw) {
    const int64_t p = i % ohw, r = i / ohw;
    const int64_t kx = r % kw, ky = (r / kw) % kh, ch = r / (kw * kh);
    const int64_t oy = p / ow, ox = p % ow;
    const int64_t iy = oy * sh - pt + ky * dh, ix = ox * sw - pl + kx * dw;
    const bool in = iy >= 0 && iy < h && ix >= 0 && ix < w;
    col[i] = in ? x[(ch * h + iy) * w + ix] : (T)0;
  }
}

/* ---- shared pieces ---- */

typedef struct conv_io {
  const void *x, *f, *bias, *res;
  void *y;
  size_t es;
} conv_io;

static void io_of(ic_kctx *c, conv_io *io) {
  const ic_conv_attrs *a = (const ic_conv_attrs *)c->attrs;
  const ic_tensor *b = ic_in(c, IC_CONV_BIAS, 0);
  const ic_tensor *r = a->residual ? ic_in(c, IC_CONV_RESIDUAL, 0) : NULL;
  io->x = ic_in(c, IC_CONV_INPUT, 0)->data;
  io->f = ic_in(c, IC_CONV_FILTER, 0)->data;
  io->bias = b ? b->data : NULL;
  io->res = r ? r->data : NULL;
  io->y = ic_out(c, 0, 0)->data;
  io->es = ic_dtype_size(ic_in(c, IC_CONV_INPUT, 0)->dtype);
}

template <typename T>
static ic_status launch_epilogue(ic_kctx *c, const ic_conv_geom *g, const void *src,
                                 const conv_io *io, bool with_bias, bool with_res) {
  const ic_conv_attrs *a = (const ic_conv_attrs *)c->attrs;
  const int64_t total = g->n * g->oc * g->oh * g->ow;
  conv_epilogue<T><<<ic_cuda_blocks(total), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
      (const T *)src, (T *)io->y, total, g->oc, g->oh * g->ow, a->nhwc,
      with_bias ? (const T *)io->bias : NULL, with_res ? (const T *)io->res : NULL, (int)a->act,
      (double)a->alpha, (double)a->beta);
  return ic_cuda_launched(c, "conv_epilogue");
}

static ic_status epilogue(ic_kctx *c, const ic_conv_geom *g, const void *src, const conv_io *io,
                          bool with_bias, bool with_res) {
  const ic_conv_attrs *a = (const ic_conv_attrs *)c->attrs;
  const bool nothing = (!with_bias || !io->bias) && (!with_res || !io->res) &&
                       a->act == IC_ACT_NONE && src == io->y;
  if (nothing) return IC_OK;
  return io->es == 8 ? launch_epilogue<double>(c, g, src, io, with_bias, with_res)
                     : launch_epilogue<float>(c, g, src, io, with_bias, with_res);
}

/* The NCHW input: x itself, or an NCHW copy in *scratch (released by the caller). */
static ic_status nchw_input(ic_kctx *c, const ic_conv_geom *g, const conv_io *io,
                            const void **xin, void **scratch) {
  const ic_conv_attrs *a = (const ic_conv_attrs *)c->attrs;
  *scratch = NULL;
  *xin = io->x;
  if (!a->nhwc) return IC_OK;
  const int64_t n = g->n * g->c * g->h * g->w;
  ic_status st = ic_cuda_scratch(c, (size_t)n * io->es, scratch);
  if (st) return st;
  if (io->es == 8) {
    nhwc_to_nchw<double><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
        (const double *)io->x, (double *)*scratch, g->n, g->c, g->h * g->w);
  } else {
    nhwc_to_nchw<float><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
        (const float *)io->x, (float *)*scratch, g->n, g->c, g->h * g->w);
  }
  *xin = *scratch;
  return ic_cuda_launched(c, "nhwc_to_nchw");
}

/* ---- im2col + cuBLAS ---- */

static ic_status conv_gemm(ic_kctx *c, const ic_conv_geom *g, const conv_io *io) {
  const ic_conv_attrs *a = (const ic_conv_attrs *)c->attrs;
  cudaStream_t s = ic_cuda_stream(c);
  const int64_t cg = g->c / g->g, og = g->oc / g->g, kk = cg * g->kh * g->kw;
  const int64_t hw = g->h * g->w, ohw = g->oh * g->ow;
  const bool direct = g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1 && g->pt == 0 &&
                      g->pl == 0 && g->oh == g->h && g->ow == g->w;
  const void *xin;
  void *xscratch = NULL, *col = NULL, *yscratch = NULL;
  ic_status st = nchw_input(c, g, io, &xin, &xscratch);
  if (!st && !direct) st = ic_cuda_scratch(c, (size_t)(g->c * g->kh * g->kw * ohw) * io->es, &col);
  if (!st && a->nhwc) st = ic_cuda_scratch(c, (size_t)(g->n * g->oc * ohw) * io->es, &yscratch);
  void *yout = a->nhwc ? yscratch : io->y;
  ic_gemm gm = {};
  gm.dtype = io->es == 8 ? IC_FP64 : IC_FP32;
  gm.m = og;
  gm.n = ohw;
  gm.k = kk;
  gm.lda = kk;
  gm.ldb = ohw;
  gm.ldc = ohw;
  gm.alpha = 1.0;
  for (int64_t n = 0; n < g->n && !st; n++) {
    const char *xs = (const char *)xin + (size_t)(n * g->c * hw) * io->es;
    const void *b = xs;
    if (!direct) {
      const int64_t cnt = g->c * g->kh * g->kw * ohw;
      if (io->es == 8) {
        im2col<double><<<ic_cuda_blocks(cnt), IC_CUDA_THREADS, 0, s>>>(
            (const double *)xs, (double *)col, g->c, g->h, g->w, g->kh, g->kw, g->oh, g->ow,
            g->sh, g->sw, g->pt, g->pl, g->dh, g->dw);
      } else {
        im2col<float><<<ic_cuda_blocks(cnt), IC_CUDA_THREADS, 0, s>>>(
            (const float *)xs, (float *)col, g->c, g->h, g->w, g->kh, g->kw, g->oh, g->ow,
            g->sh, g->sw, g->pt, g->pl, g->dh, g->dw);
      }
      if ((st = ic_cuda_launched(c, "im2col"))) break;
      b = col;
    }
    /* one product per group: W_g [og x kk] * col_g [kk x ohw] */
    char *ys = (char *)yout + (size_t)(n * g->oc * ohw) * io->es;
    st = ic_cugemm_strided(c, &gm, io->f, og * kk, b, kk * ohw, ys, og * ohw, g->g);
  }
  if (!st) st = epilogue(c, g, yout, io, true, true);
  st = ic_cuda_scratch_free(c, yscratch, st);
  st = ic_cuda_scratch_free(c, col, st);
  return ic_cuda_scratch_free(c, xscratch, st);
}

/* ---- cuDNN ---- */

#ifdef IC_WITH_CUDNN
static ic_status dnn_fail(ic_kctx *c, cudnnStatus_t e, const char *what) {
  return ic_kfail(c, IC_ERR_DEVICE, "cuDNN %s failed: %s", what, cudnnGetErrorString(e));
}

/* What cuDNN has no algorithm or support for: the fallback runs instead. */
static bool dnn_declines(cudnnStatus_t e) {
  return e == CUDNN_STATUS_NOT_SUPPORTED || e == CUDNN_STATUS_BAD_PARAM;
}

typedef struct dnn_plan {
  cudnnTensorDescriptor_t x, y, b;
  cudnnFilterDescriptor_t w;
  cudnnConvolutionDescriptor_t conv;
  cudnnActivationDescriptor_t act;
  cudnnConvolutionFwdAlgo_t algo;
  size_t ws_bytes;
} dnn_plan;

static void plan_free(dnn_plan *d) {
  if (d->x) cudnnDestroyTensorDescriptor(d->x);
  if (d->y) cudnnDestroyTensorDescriptor(d->y);
  if (d->b) cudnnDestroyTensorDescriptor(d->b);
  if (d->w) cudnnDestroyFilterDescriptor(d->w);
  if (d->conv) cudnnDestroyConvolutionDescriptor(d->conv);
  if (d->act) cudnnDestroyActivationDescriptor(d->act);
}

/* The per-instruction state: the plan for the geometry it was built for, or the fact that
 * cuDNN declined that geometry. */
typedef struct cuconv_state {
  bool valid, declined;
  size_t es;
  ic_conv_geom g;
  dnn_plan d;
} cuconv_state;

static bool same_geom(const ic_conv_geom *a, const ic_conv_geom *b) {
  return a->n == b->n && a->c == b->c && a->h == b->h && a->w == b->w && a->oc == b->oc &&
         a->kh == b->kh && a->kw == b->kw && a->oh == b->oh && a->ow == b->ow && a->sh == b->sh &&
         a->sw == b->sw && a->dh == b->dh && a->dw == b->dw && a->pt == b->pt && a->pb == b->pb &&
         a->pl == b->pl && a->pr == b->pr && a->g == b->g;
}

static bool fits_int(const ic_conv_geom *g) {
  const int64_t v[] = {g->n * g->c * g->h * g->w, g->n * g->oc * g->oh * g->ow,
                       g->oc * (g->c / g->g) * g->kh * g->kw};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    if (v[i] > INT32_MAX) return false;
  }
  return true;
}

/* Algorithms accurate to float32 rounding: the FFT and Winograd ones trade accuracy for speed
 * (errors well above the CPU kernels'), so they are not used. */
static bool accurate(cudnnConvolutionFwdAlgo_t a) {
  return a == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM ||
         a == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM ||
         a == CUDNN_CONVOLUTION_FWD_ALGO_GEMM || a == CUDNN_CONVOLUTION_FWD_ALGO_DIRECT;
}

/* Describe the NCHW convolution to cuDNN and pick an algorithm. *declined when cuDNN cannot
 * compute Paddle's convolution here (asymmetric paddings, another output size, no accurate
 * algorithm); IC_ERR_DEVICE for real failures. */
static ic_status dnn_setup(ic_kctx *c, const ic_conv_geom *g, size_t es, dnn_plan *d,
                           bool *declined) {
  cudnnHandle_t h = (cudnnHandle_t)c->env->dnn;
  const cudnnDataType_t dt = es == 8 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
  *declined = true;
  /* cuDNN pads symmetrically and sizes the output by its own (flooring) formula */
  if (g->pt != g->pb || g->pl != g->pr || !fits_int(g)) return IC_OK;
  if (g->h + 2 * g->pt < g->dh * (g->kh - 1) + 1 || g->w + 2 * g->pl < g->dw * (g->kw - 1) + 1) {
    return IC_OK;
  }
  cudnnStatus_t e;
  const char *what;
  int on = 0, oc = 0, oh = 0, ow = 0, got = 0;
  cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
#define TRY(call, name)                                   \
  do {                                                    \
    what = (name);                                        \
    if ((e = (call)) != CUDNN_STATUS_SUCCESS) goto fail;  \
  } while (0)
  TRY(cudnnCreateTensorDescriptor(&d->x), "cudnnCreateTensorDescriptor");
  TRY(cudnnCreateTensorDescriptor(&d->y), "cudnnCreateTensorDescriptor");
  TRY(cudnnCreateFilterDescriptor(&d->w), "cudnnCreateFilterDescriptor");
  TRY(cudnnCreateConvolutionDescriptor(&d->conv), "cudnnCreateConvolutionDescriptor");
  TRY(cudnnSetTensor4dDescriptor(d->x, CUDNN_TENSOR_NCHW, dt, (int)g->n, (int)g->c, (int)g->h,
                                 (int)g->w),
      "cudnnSetTensor4dDescriptor (Input)");
  TRY(cudnnSetFilter4dDescriptor(d->w, dt, CUDNN_TENSOR_NCHW, (int)g->oc, (int)(g->c / g->g),
                                 (int)g->kh, (int)g->kw),
      "cudnnSetFilter4dDescriptor");
  TRY(cudnnSetConvolution2dDescriptor(d->conv, (int)g->pt, (int)g->pl, (int)g->sh, (int)g->sw,
                                      (int)g->dh, (int)g->dw, CUDNN_CROSS_CORRELATION, dt),
      "cudnnSetConvolution2dDescriptor");
  TRY(cudnnSetConvolutionGroupCount(d->conv, (int)g->g), "cudnnSetConvolutionGroupCount");
  /* float32 in full precision: FMA kernels only, no TF32 tensor cores */
  TRY(cudnnSetConvolutionMathType(d->conv, CUDNN_FMA_MATH), "cudnnSetConvolutionMathType");
  TRY(cudnnGetConvolution2dForwardOutputDim(d->conv, d->x, d->w, &on, &oc, &oh, &ow),
      "cudnnGetConvolution2dForwardOutputDim");
  if (on != g->n || oc != g->oc || oh != g->oh || ow != g->ow) return IC_OK;
  TRY(cudnnSetTensor4dDescriptor(d->y, CUDNN_TENSOR_NCHW, dt, on, oc, oh, ow),
      "cudnnSetTensor4dDescriptor (Output)");
  TRY(cudnnGetConvolutionForwardAlgorithm_v7(h, d->x, d->w, d->conv, d->y,
                                             CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf),
      "cudnnGetConvolutionForwardAlgorithm_v7");
  for (int i = 0; i < got; i++) {
    if (perf[i].status != CUDNN_STATUS_SUCCESS || !accurate(perf[i].algo)) continue;
    if (perf[i].mathType != CUDNN_FMA_MATH) continue; /* DEFAULT_MATH may use TF32 */
    e = cudnnGetConvolutionForwardWorkspaceSize(h, d->x, d->w, d->conv, d->y, perf[i].algo,
                                                &d->ws_bytes);
    if (e == CUDNN_STATUS_SUCCESS) {
      d->algo = perf[i].algo;
      *declined = false;
      return IC_OK;
    }
    what = "cudnnGetConvolutionForwardWorkspaceSize";
    if (!dnn_declines(e)) goto fail;
  }
  return IC_OK; /* no accurate algorithm: declined */
#undef TRY
fail:
  if (dnn_declines(e)) return IC_OK;
  *declined = false;
  return dnn_fail(c, e, what);
}

/* relu (fuse_alpha 0) with a Bias on NCHW data, through cuDNN's fused
 * y = relu(conv(x) + z + bias) with z = ResidualData, or z = 0 without one (Y is zeroed for
 * it: cuDNN does not promise to skip reading z when its weight is 0). *done false when cuDNN
 * has no fused kernel here; Y may then hold zeros, which the unfused path overwrites. */
static ic_status dnn_fused(ic_kctx *c, const ic_conv_geom *g, const conv_io *io, dnn_plan *d,
                           void *ws, bool *done) {
  cudnnHandle_t h = (cudnnHandle_t)c->env->dnn;
  const cudnnDataType_t dt = io->es == 8 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
  const double one64 = 1.0, zero64 = 0.0;
  const float one32 = 1.0f, zero32 = 0.0f;
  const void *one = io->es == 8 ? (const void *)&one64 : (const void *)&one32;
  const void *zero = io->es == 8 ? (const void *)&zero64 : (const void *)&zero32;
  *done = false;
  cudnnStatus_t e = CUDNN_STATUS_SUCCESS;
  const char *what = "cudnnCreateTensorDescriptor";
  if (!d->b || !d->act) { /* made once per plan (kept with it in the instruction's state) */
    e = d->b ? CUDNN_STATUS_SUCCESS : cudnnCreateTensorDescriptor(&d->b);
    if (e == CUDNN_STATUS_SUCCESS) {
      what = "cudnnSetTensor4dDescriptor (Bias)";
      e = cudnnSetTensor4dDescriptor(d->b, CUDNN_TENSOR_NCHW, dt, 1, (int)g->oc, 1, 1);
    }
    if (e == CUDNN_STATUS_SUCCESS) {
      what = "cudnnCreateActivationDescriptor";
      e = cudnnCreateActivationDescriptor(&d->act);
    }
    if (e == CUDNN_STATUS_SUCCESS) {
      what = "cudnnSetActivationDescriptor";
      e = cudnnSetActivationDescriptor(d->act, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0);
    }
  }
  if (e != CUDNN_STATUS_SUCCESS) return dnn_fail(c, e, what);
  if (!io->res) {
    const size_t bytes = (size_t)(g->n * g->oc * g->oh * g->ow) * io->es;
    ic_status st = ic_cuda_check(c, cudaMemsetAsync(io->y, 0, bytes, ic_cuda_stream(c)),
                                 "cudaMemsetAsync of Output");
    if (st) return st;
  }
  e = cudnnConvolutionBiasActivationForward(h, one, d->x, io->x, d->w, io->f, d->conv, d->algo,
                                            ws, d->ws_bytes, io->res ? one : zero, d->y,
                                            io->res ? io->res : io->y, d->b, io->bias, d->act,
                                            d->y, io->y);
  if (e == CUDNN_STATUS_SUCCESS) {
    *done = true;
    return IC_OK;
  }
  return dnn_declines(e) ? IC_OK : dnn_fail(c, e, "cudnnConvolutionBiasActivationForward");
}

/* The convolution through cuDNN; *declined (and nothing written to Output) when cuDNN cannot
 * do this one. */
static ic_status conv_cudnn(ic_kctx *c, const ic_conv_geom *g, const conv_io *io,
                            bool *declined) {
  const ic_conv_attrs *a = (const ic_conv_attrs *)c->attrs;
  cudnnHandle_t h = (cudnnHandle_t)c->env->dnn;
  /* The plan: kept in the instruction's state when there is a slot, else built for this call. */
  cuconv_state *cs = c->state ? (cuconv_state *)*c->state : NULL;
  if (c->state && !cs) {
    if (!(cs = (cuconv_state *)calloc(1, sizeof *cs))) {
      return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for the cuDNN plan");
    }
    *c->state = cs;
  }
  dnn_plan local = {};
  ic_status st = IC_OK;
  if (cs && cs->valid && cs->es == io->es && same_geom(&cs->g, g)) {
    *declined = cs->declined;
  } else {
    if (cs) {
      plan_free(&cs->d);
      memset(&cs->d, 0, sizeof cs->d);
      cs->valid = false;
    }
    st = dnn_setup(c, g, io->es, cs ? &cs->d : &local, declined);
    if (!st && cs) {
      cs->valid = true;
      cs->declined = *declined;
      cs->es = io->es;
      cs->g = *g;
    }
  }
  dnn_plan &d = cs ? cs->d : local;
  if (st || *declined) {
    if (!cs) plan_free(&local);
    return st;
  }
  void *ws = NULL, *xscratch = NULL, *yscratch = NULL;
  const void *xin = io->x;
  if (!(st = nchw_input(c, g, io, &xin, &xscratch)) &&
      !(st = ic_cuda_scratch(c, d.ws_bytes, &ws)) && a->nhwc) {
    st = ic_cuda_scratch(c, (size_t)(g->n * g->oc * g->oh * g->ow) * io->es, &yscratch);
  }
  void *yout = a->nhwc ? yscratch : io->y;
  bool done = false;
  if (!st && !a->nhwc && a->act == IC_ACT_RELU && a->alpha == 0.0f && io->bias) {
    conv_io fio = *io;
    fio.x = xin;
    st = dnn_fused(c, g, &fio, &d, ws, &done);
  }
  if (!st && !done) {
    const double one64 = 1.0, zero64 = 0.0;
    const float one32 = 1.0f, zero32 = 0.0f;
    const bool f64 = io->es == 8;
    cudnnStatus_t e = cudnnConvolutionForward(
        h, f64 ? (const void *)&one64 : (const void *)&one32, d.x, xin, d.w, io->f, d.conv,
        d.algo, ws, d.ws_bytes, f64 ? (const void *)&zero64 : (const void *)&zero32, d.y, yout);
    if (e == CUDNN_STATUS_SUCCESS) {
      st = epilogue(c, g, yout, io, true, true);
    } else if (dnn_declines(e)) {
      *declined = true; /* Output untouched (or zeroed by the fused attempt): fall back */
    } else {
      st = dnn_fail(c, e, "cudnnConvolutionForward");
    }
  }
  st = ic_cuda_scratch_free(c, yscratch, st);
  st = ic_cuda_scratch_free(c, ws, st);
  st = ic_cuda_scratch_free(c, xscratch, st);
  if (!cs) plan_free(&local);
  return st;
}
#endif

extern "C" void ic_cuconv_free_state(void *state) {
#ifdef IC_WITH_CUDNN
  cuconv_state *cs = (cuconv_state *)state;
  plan_free(&cs->d);
  free(cs);
#else
  free(state);
#endif
}

ic_status ic_cuconv_run(ic_kctx *c) {
  ic_status st = ic_cuda_need_env(c, true);
  if (st) return st;
  /* fuse.c adds a fused depthwise convolution on CPU plans only. */
  if (((const ic_conv_attrs *)c->attrs)->dw_stride) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED,
                    "a fused depthwise convolution (ic_dw_stride, ic_DwFilter) runs on the CPU "
                    "only");
  }
  /* and its affines and input channel scale (conv.h): CPU plans only as well */
  for (size_t k = IC_CONV_AFF_SCALE; k <= IC_CONV_PRE_BIAS; k++) {
    if (ic_in(c, k, 0)) {
      return ic_kfail_in(c, k, 0, "a fused affine runs on the CPU only (fuse.c adds it on CPU "
                                  "plans)");
    }
  }
  if (ic_in(c, IC_CONV_IN_SCALE, 0)) {
    return ic_kfail_in(c, IC_CONV_IN_SCALE, 0,
                       "a fused input channel scale runs on the CPU only (fuse.c adds it on "
                       "CPU plans)");
  }
  ic_conv_geom g;
  if ((st = ic_conv_geometry(c, &g))) return st;
  conv_io io;
  io_of(c, &io);
#ifdef IC_WITH_CUDNN
  if (ic_cuconv_use_cudnn(c)) {
    bool declined = false;
    st = conv_cudnn(c, &g, &io, &declined);
    if (st || !declined) return st;
  }
#endif
  return conv_gemm(c, &g, &io);
}
