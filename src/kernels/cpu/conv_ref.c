/* The reference path of conv2d / depthwise_conv2d (conv.h): im2col + BLAS GEMM per image and
 * group, float64 always, float32 where oneDNN has no implementation whose sums are fixed by
 * the shapes (conv_dnnl.c), or with ICORE_CONV_REFERENCE=1. Blocked inputs are unpacked
 * first, an ic_InScale is applied to the Input as the unfused product rounds it, a fused
 * depthwise convolution runs as its own loop. */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/conv_impl.h"
#include "kernels/cpu/onednn.h"

typedef ic_conv_geom geom;

/* ---------------------------------------------------------------------------------------
 * Reference path: im2col + GEMM per image and group (float64, and float32 when oneDNN has
 * no implementation). NHWC goes through NCHW copies in scratch.
 * ------------------------------------------------------------------------------------- */

static void gemm_f32(int m, int n, int k, const float *a, const float *b, float *c) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}
static void gemm_f64(int m, int n, int k, const double *a, const double *b, double *c) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, k, b, n, 0.0, c, n);
}

/* x: [n][c][h][w] -> y: [n][h][w][c] when to_nhwc, the inverse otherwise (c, h, w are the
 * logical NCHW sizes either way). */
#define DEFINE_TRANSPOSE(NAME, T)                                                         \
  static void NAME(const T *x, T *y, const geom *g, int64_t ch, int64_t h, int64_t w,     \
                   bool to_nhwc) {                                                        \
    for (int64_t n = 0; n < g->n; n++) {                                                  \
      for (int64_t k = 0; k < ch; k++) {                                                  \
        for (int64_t p = 0; p < h * w; p++) {                                             \
          size_t nchw = (size_t)((n * ch + k) * h * w + p);                               \
          size_t nhwc = (size_t)((n * h * w + p) * ch + k);                               \
          if (to_nhwc) y[nhwc] = x[nchw];                                                 \
          else y[nchw] = x[nhwc];                                                         \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
DEFINE_TRANSPOSE(transpose_f32, float)
DEFINE_TRANSPOSE(transpose_f64, double)

#define DEFINE_REF(NAME, T, GEMM, TRANSPOSE, EPILOGUE)                                    \
  ic_status NAME(ic_kctx *c, const geom *g, const T *x, const T *res, T *out) {           \
    const ic_conv_attrs *a = c->attrs;                                                    \
    const ic_tensor *bt = ic_in(c, IC_CONV_BIAS, 0);                                      \
    const T *w = ic_in(c, IC_CONV_FILTER, 0)->data;                                       \
    const T *bias = bt ? bt->data : NULL;                                                 \
    int64_t cg = g->c / g->g, og = g->oc / g->g, kk = cg * g->kh * g->kw;                 \
    int64_t hw = g->h * g->w, ohw = g->oh * g->ow;                                        \
    bool direct = g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1 && g->pt == 0 &&   \
                  g->pl == 0 && g->oh == g->h && g->ow == g->w;                           \
    size_t n_col = direct ? 0 : (size_t)(kk * ohw);                                       \
    size_t n_in = a->nhwc ? (size_t)(g->n * g->c * hw) : 0;                               \
    size_t n_out = a->nhwc ? (size_t)(g->n * g->oc * ohw) : 0;                            \
    ic_buffer *sb = NULL;                                                                 \
    if (n_col + n_in + n_out) {                                                           \
      if (!(sb = ic_kscratch(c, (n_col + n_in + n_out) * sizeof(T)))) return c->err->code; \
    }                                                                                     \
    T *col = sb ? (T *)sb->data : NULL, *xin = col + n_col, *yout = xin + n_in;           \
    if (a->nhwc) TRANSPOSE(x, xin, g, g->c, g->h, g->w, false);                           \
    else xin = (T *)x;                                                                    \
    if (!a->nhwc) yout = out;                                                             \
    for (int64_t n = 0; n < g->n; n++) {                                                  \
      for (int64_t gi = 0; gi < g->g; gi++) {                                             \
        const T *xs = xin + (size_t)((n * g->c + gi * cg) * hw);                          \
        const T *b = xs;                                                                  \
        if (!direct) {                                                                    \
          for (int64_t ci = 0; ci < cg; ci++) {                                           \
            for (int64_t ky = 0; ky < g->kh; ky++) {                                      \
              for (int64_t kx = 0; kx < g->kw; kx++) {                                    \
                T *row = col + (size_t)(((ci * g->kh + ky) * g->kw + kx) * ohw);          \
                for (int64_t oy = 0; oy < g->oh; oy++) {                                  \
                  int64_t iy = oy * g->sh - g->pt + ky * g->dh;                           \
                  for (int64_t ox = 0; ox < g->ow; ox++) {                                \
                    int64_t ix = ox * g->sw - g->pl + kx * g->dw;                         \
                    bool in = iy >= 0 && iy < g->h && ix >= 0 && ix < g->w;               \
                    row[oy * g->ow + ox] = in ? xs[(ci * g->h + iy) * g->w + ix] : (T)0;  \
                  }                                                                       \
                }                                                                         \
              }                                                                           \
            }                                                                             \
          }                                                                               \
          b = col;                                                                        \
        }                                                                                 \
        T *ys = yout + (size_t)((n * g->oc + gi * og) * ohw);                             \
        GEMM((int)og, (int)ohw, (int)kk, w + (size_t)(gi * og * kk), b, ys);              \
        for (int64_t o = 0; bias && o < og; o++) {                                        \
          for (int64_t p = 0; p < ohw; p++) ys[o * ohw + p] += bias[gi * og + o];         \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
    if (a->nhwc) TRANSPOSE(yout, out, g, g->oc, g->oh, g->ow, true);                      \
    const ic_conv_affine aff_ = ic_conv_affine_of(c);                                                     \
    EPILOGUE(a, &aff_, out, res, (size_t)(g->n * g->oc * ohw));                           \
    ic_buffer_release(sb);                                                                \
    return IC_OK;                                                                         \
  }
static DEFINE_REF(conv_ref_f32, float, gemm_f32, transpose_f32, ic_conv_epilogue_f32)
DEFINE_REF(ic_conv_ref_f64, double, gemm_f64, transpose_f64, ic_conv_epilogue_f64)

/* A fused depthwise convolution (3 x 3, padding 1, stride dw_stride) over the 1 x 1
 * convolution's activated output t [n][oc][oh][ow], plus ic_DwBias, then its activation,
 * into y (reference path). */
static void dw_ref(const ic_kctx *c, const geom *g, const float *t, float *y) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *wt = ic_in(c, IC_CONV_DW_FILTER, 0), *bt = ic_in(c, IC_CONV_DW_BIAS, 0);
  const float *w = wt->data, *b = bt ? bt->data : NULL;
  const int64_t s = a->dw_stride, yh = (g->oh - 1) / s + 1, yw = (g->ow - 1) / s + 1;
  for (int64_t n = 0; n < g->n; n++) {
    for (int64_t ch = 0; ch < g->oc; ch++) {
      const float *tp = t + (size_t)((n * g->oc + ch) * g->oh * g->ow);
      const float *wp = w + ch * 9;
      float *yp = y + (size_t)((n * g->oc + ch) * yh * yw);
      for (int64_t oy = 0; oy < yh; oy++) {
        for (int64_t ox = 0; ox < yw; ox++) {
          float acc = 0.0f;
          for (int64_t ky = 0; ky < 3; ky++) {
            int64_t iy = oy * s - 1 + ky;
            if (iy < 0 || iy >= g->oh) continue;
            for (int64_t kx = 0; kx < 3; kx++) {
              int64_t ix = ox * s - 1 + kx;
              if (ix >= 0 && ix < g->ow) acc += tp[iy * g->ow + ix] * wp[ky * 3 + kx];
            }
          }
          if (b) acc += b[ch];
          yp[oy * yw + ox] = (float)ic_conv_act_apply(a->dw_act, a->dw_alpha, a->dw_beta, acc);
        }
      }
    }
  }
}

/* The reference path reads plain tensors: blocked inputs are unpacked into scratch first. */
ic_status ic_conv_ref_plain(ic_kctx *c, const geom *g) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_CONV_INPUT, 0);
  const ic_tensor *r = a->residual ? ic_in(c, IC_CONV_RESIDUAL, 0) : NULL;
  size_t nx = x->layout ? (size_t)ic_tensor_numel_(x) : 0;
  size_t nr = r && r->layout ? (size_t)ic_tensor_numel_(r) : 0;
  ic_buffer *sb = NULL;
  if (nx + nr && !(sb = ic_kscratch(c, (nx + nr) * sizeof(float)))) return c->err->code;
  const float *xp = x->data, *rp = r ? r->data : NULL;
  if (nx) {
    ic_blocked_to_plain(x->data, (float *)sb->data, x->dims, ic_layout_block(x->layout));
    xp = (const float *)sb->data;
  }
  if (nr) {
    ic_blocked_to_plain(r->data, (float *)sb->data + nx, r->dims, ic_layout_block(r->layout));
    rp = (const float *)sb->data + nx;
  }
  ic_status st;
  const ic_tensor *sc = ic_in(c, IC_CONV_IN_SCALE, 0);
  ic_buffer *xb = NULL;
  if (sc) {
    /* ic_InScale: the Input scaled per image and channel first, as the unfused
     * elementwise_mul rounds it */
    const int64_t hw = g->h * g->w;
    if (!(xb = ic_kscratch(c, (size_t)(g->n * g->c * hw) * sizeof(float)))) {
      ic_buffer_release(sb);
      return c->err->code;
    }
    float *xs = xb->data;
    for (int64_t n = 0; n < g->n; n++) {
      const float *sv = (const float *)sc->data + (sc->dims[0] == 1 ? 0 : n) * g->c;
      for (int64_t ch = 0; ch < g->c; ch++) {
        const size_t o = (size_t)((n * g->c + ch) * hw);
        for (int64_t p = 0; p < hw; p++) xs[o + p] = xp[o + p] * sv[ch];
      }
    }
    xp = xs;
  }
  if (a->dw_stride) {
    /* The 1 x 1 convolution into scratch, then the depthwise one from it. */
    size_t nt = (size_t)(g->n * g->oc * g->oh * g->ow);
    ic_buffer *tb = ic_kscratch(c, nt * sizeof(float));
    if (!tb) {
      ic_buffer_release(xb);
      ic_buffer_release(sb);
      return c->err->code;
    }
    st = conv_ref_f32(c, g, xp, NULL, tb->data);
    if (!st) dw_ref(c, g, tb->data, ic_out(c, 0, 0)->data);
    ic_buffer_release(tb);
  } else {
    st = conv_ref_f32(c, g, xp, rp, ic_out(c, 0, 0)->data);
  }
  ic_buffer_release(xb);
  ic_buffer_release(sb);
  return st;
}
