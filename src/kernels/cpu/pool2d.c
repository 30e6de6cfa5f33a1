/* pool2d: max or average pooling over 2-D windows, Paddle's semantics exactly
 * (paddle/phi/infermeta/unary.cc PoolInferMeta, paddle/phi/kernels/funcs/pooling.{h,cc},
 * paddle/phi/kernels/impl/pool_kernel_impl.h PoolRawKernel):
 *   - paddings (2 or 4 values) are first replaced by padding_algorithm (SAME: output
 *     ceil(in / stride); VALID: none) and zeroed for global_pooling and adaptive;
 *   - global_pooling makes the window the whole H x W;
 *   - the output size is (in - k + pad_begin + pad_end [+ stride - 1 with ceil_mode]) /
 *     stride + 1, or ksize when adaptive;
 *   - but the kernel uses the *begin* paddings only: window h covers [h * s - pt,
 *     min(h * s - pt + k, H + pt)) (the top padding bounds the bottom too), clamped to the
 *     input; avg divides by the clamped element count when exclusive, else by the count
 *     before clamping; an empty window gives -FLT_MAX (max) or 0 / 0 (avg);
 *   - adaptive avg uses bins [floor(i * H / out), ceil((i + 1) * H / out)); adaptive *max*
 *     is not adaptive at all in Paddle's pool2d kernel: it passes adaptive = false to the
 *     pooling functor, so windows are ksize x ksize at the given strides, output ksize.
 * float32 NCHW runs the channel-blocked loops below (the plain loops' arithmetic, a block of
 * channels at a time); float32 NHWC windows that oneDNN computes the same way (no empty
 * window; for non-exclusive avg, no window past H + pt; adaptive avg only over evenly
 * divisible inputs) run one oneDNN pooling primitive; everything else runs the plain loops
 * below, which mirror Paddle's. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/conv.h"
#include "kernels/cpu/onednn.h"
#include "kernels/cpu/pool2d.h"

void ic_read_pool_type(ic_attr_reader *r, bool *max) {
  const char *type = ic_ar_str(r, "pooling_type", NULL);
  if (!r->st && !type) ic_ar_fail(r, "pooling_type", "is missing (required, \"max\" or \"avg\")");
  if (!r->st) {
    *max = !strcmp(type, "max");
    if (!*max && strcmp(type, "avg")) {
      ic_ar_fail(r, "pooling_type", "is '%s', expected \"max\" or \"avg\"", type);
    }
  }
}

ic_status ic_pool2d_parse(ic_attr_reader *r, void *attrs) {
  pool_attrs *a = attrs;
  ic_read_pool_type(r, &a->max);
  const int64_t *v;
  size_t n;
  /* Older Paddle writes ksize [-1, -1] with global_pooling: the window is then the input's. */
  a->global = ic_ar_bool(r, "global_pooling", false);
  if (ic_ar_ints(r, "ksize", true, &v, &n)) {
    if (n != 2) ic_ar_fail(r, "ksize", "has %zu values, expected 2 ([h, w])", n);
    for (size_t i = 0; i < n && i < 2 && !r->st; i++) {
      if (v[i] < 1 && !a->global) {
        ic_ar_fail(r, "ksize", "holds %lld, expected values >= 1", (long long)v[i]);
      }
      a->ksize[i] = v[i];
    }
  }
  a->strides[0] = a->strides[1] = 1;
  if (ic_ar_ints(r, "strides", false, &v, &n)) {
    if (n != 2) ic_ar_fail(r, "strides", "has %zu values, expected 2 ([h, w])", n);
    for (size_t i = 0; i < n && i < 2 && !r->st; i++) {
      if (v[i] < 1) ic_ar_fail(r, "strides", "holds %lld, expected values >= 1", (long long)v[i]);
      a->strides[i] = v[i];
    }
  }
  ic_read_paddings(r, a->paddings);
  a->ceil_mode = ic_ar_bool(r, "ceil_mode", false);
  a->exclusive = ic_ar_bool(r, "exclusive", true);
  a->adaptive = ic_ar_bool(r, "adaptive", false);
  a->pad_algo = ic_read_pad_algo(r);
  a->nhwc = ic_read_nhwc(r);
  a->blocked_out = ic_ar_bool(r, "ic_blocked_out", false);
  return r->st;
}

typedef ic_pool_geom pgeom;

ic_status ic_pool_geometry(ic_kctx *c, pgeom *g) {
  const pool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT))) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  g->n = x->dims[0];
  g->c = a->nhwc ? x->dims[3] : x->dims[1];
  g->h = a->nhwc ? x->dims[1] : x->dims[2];
  g->w = a->nhwc ? x->dims[2] : x->dims[3];
  g->kh = a->ksize[0];
  g->kw = a->ksize[1];
  g->sh = a->strides[0];
  g->sw = a->strides[1];
  int64_t p[4];
  ic_apply_pad_algo(a->pad_algo, a->paddings, g->h, g->w, g->sh, g->sw, g->kh, g->kw, p);
  g->pt = p[0], g->pb = p[1], g->pl = p[2], g->pr = p[3];
  if (a->global || a->adaptive) g->pt = g->pb = g->pl = g->pr = 0;
  if (a->global) {
    g->kh = g->h;
    g->kw = g->w;
  }
  if (a->adaptive) {
    g->oh = g->kh;
    g->ow = g->kw;
  } else {
    int64_t ch = a->ceil_mode ? g->sh - 1 : 0, cw = a->ceil_mode ? g->sw - 1 : 0;
    g->oh = (g->h - g->kh + g->pt + g->pb + ch) / g->sh + 1;
    g->ow = (g->w - g->kw + g->pl + g->pr + cw) / g->sw + 1;
    if (g->oh < 0 || g->ow < 0) {
      return ic_kfail_in(c, 0, 0,
                         "which with window %lld x %lld, strides [%lld, %lld] and paddings "
                         "[%lld, %lld, %lld, %lld] gives an output of %lld x %lld; expected "
                         "sizes >= 0",
                         (long long)g->kh, (long long)g->kw, (long long)g->sh, (long long)g->sw,
                         (long long)g->pt, (long long)g->pb, (long long)g->pl, (long long)g->pr,
                         (long long)g->oh, (long long)g->ow);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const pool_attrs *a = c->attrs;
  pgeom g;
  ic_status st = ic_pool_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int blk = ic_layout_block(x->layout);
  bool padded = x->layout == IC_LAYOUT_NCHW16C_PAD;
  if (x->layout && (a->nhwc || x->dtype != IC_FP32 || x->ndim != 4 || !blk ||
                    (!padded && x->dims[1] % blk))) {
    return ic_kfail_in(c, 0, 0,
                       "expected the plain layout: a blocked input must be float32 NCHW with "
                       "whole channel blocks or nChw16c with padded channels (data_format %s)",
                       a->nhwc ? "NHWC" : "NCHW");
  }
  int64_t d[4] = {g.n, a->nhwc ? g.oh : g.c, a->nhwc ? g.ow : g.oh, a->nhwc ? g.c : g.ow};
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 4, d);
  return IC_OK;
}

/* ---------------------------------------------------------------------------------------
 * Plain loops, statement for statement Paddle's Pool2dFunctor.
 * ------------------------------------------------------------------------------------- */

#define DEFINE_LOOPS(NAME, T)                                                             \
  static void NAME(const pool_attrs *a, const pgeom *g, const T *x, T *y) {               \
    bool adaptive = a->adaptive && !a->max; /* see the file comment */                    \
    int64_t H = g->h, W = g->w, C = g->c;                                                 \
    for (int64_t n = 0; n < g->n; n++) {                                                  \
      for (int64_t ch = 0; ch < C; ch++) {                                                \
        for (int64_t ph = 0; ph < g->oh; ph++) {                                          \
          for (int64_t pw = 0; pw < g->ow; pw++) {                                        \
            int64_t hs, he, ws, we, size;                                                 \
            if (adaptive) {                                                               \
              hs = ph * H / g->oh;                                                        \
              he = ((ph + 1) * H + g->oh - 1) / g->oh;                                    \
              ws = pw * W / g->ow;                                                        \
              we = ((pw + 1) * W + g->ow - 1) / g->ow;                                    \
              size = (he - hs) * (we - ws);                                               \
            } else {                                                                      \
              hs = ph * g->sh - g->pt;                                                    \
              ws = pw * g->sw - g->pl;                                                    \
              he = hs + g->kh < H + g->pt ? hs + g->kh : H + g->pt;                       \
              we = ws + g->kw < W + g->pl ? ws + g->kw : W + g->pl;                       \
              size = (he - hs) * (we - ws);                                               \
              if (hs < 0) hs = 0;                                                         \
              if (ws < 0) ws = 0;                                                         \
              if (he > H) he = H;                                                         \
              if (we > W) we = W;                                                         \
              if (a->max || a->exclusive) size = (he - hs) * (we - ws);                   \
            }                                                                             \
            T v = a->max ? (T)-FLT_MAX : (T)0;                                            \
            for (int64_t ih = hs; ih < he; ih++) {                                        \
              for (int64_t iw = ws; iw < we; iw++) {                                      \
                T e = a->nhwc ? x[((n * H + ih) * W + iw) * C + ch]                       \
                              : x[((n * C + ch) * H + ih) * W + iw];                      \
                if (a->max) v = v > e ? v : e;                                            \
                else v += e;                                                              \
              }                                                                           \
            }                                                                             \
            if (!a->max) v = v / (T)size;                                                 \
            if (a->nhwc) y[((n * g->oh + ph) * g->ow + pw) * C + ch] = v;                 \
            else y[((n * C + ch) * g->oh + ph) * g->ow + pw] = v;                         \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
DEFINE_LOOPS(loops_f32, float)
DEFINE_LOOPS(loops_f64, double)

/* ---------------------------------------------------------------------------------------
 * Channel-blocked loops (float32 NCHW): the plain loops' windows and arithmetic, element for
 * element (the same sum order, the same divisor), run on a block of 8 or 16 channels at a
 * time. oneDNN 2.6's pooling took 30 ns per output vector on small windows (PP-HGNet's 2 x 2
 * max pool over 16 x 112 x 112, 0.75 ms at one thread on an AVX2 EPYC; CRNN's 2 x 2 max pools
 * over 480 x 2 x 160, 0.14-0.25 ms each); these loops take the bits of the plain loops, so
 * the result does not depend on the layout, the block or the thread count.
 * ------------------------------------------------------------------------------------- */

/* One output position's window along an axis: the clamped input range [s, e) and the
 * factor of the divisor, signed as the plain loops compute it. */
typedef struct pwin {
  int64_t s, e, len;
} pwin;

static void axis_windows(const pool_attrs *a, int64_t in, int64_t out, int64_t k, int64_t st,
                         int64_t p, pwin *w) {
  bool adaptive = a->adaptive && !a->max;
  for (int64_t i = 0; i < out; i++) {
    int64_t s, e, len;
    if (adaptive) {
      s = i * in / out;
      e = ((i + 1) * in + out - 1) / out;
      len = e - s;
    } else {
      s = i * st - p;
      e = s + k < in + p ? s + k : in + p;
      len = e - s;
      if (s < 0) s = 0;
      if (e > in) e = in;
      if (a->max || a->exclusive) len = e - s;
    }
    w[i] = (pwin){s, e, len};
  }
}

/* One row of outputs (OW positions x B channels, [ow][B]) of the channel block at xb
 * ([H][W][B]). The portable form; with AVX2 the one below (the same operations: MAXPS(v, e)
 * is v > e ? v : e, ADDPS and DIVPS are the scalar IEEE operations lane by lane). */
#define DEFINE_BLOCK_ROW(NAME, B)                                                         \
  static void NAME(bool max, const pwin *wh, const pwin *ww, int64_t ow_n, int64_t W,     \
                   const float *xb, float *out) {                                         \
    for (int64_t ow = 0; ow < ow_n; ow++) {                                               \
      float v[B];                                                                         \
      for (int l = 0; l < B; l++) v[l] = max ? -FLT_MAX : 0.0f;                           \
      for (int64_t ih = wh->s; ih < wh->e; ih++) {                                        \
        const float *r = xb + (size_t)(ih * W) * B;                                       \
        for (int64_t iw = ww[ow].s; iw < ww[ow].e; iw++) {                                \
          const float *e = r + (size_t)iw * B;                                            \
          if (max) {                                                                      \
            for (int l = 0; l < B; l++) v[l] = v[l] > e[l] ? v[l] : e[l];                 \
          } else {                                                                        \
            for (int l = 0; l < B; l++) v[l] += e[l];                                     \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
      if (!max) {                                                                         \
        const float size = (float)(wh->len * ww[ow].len);                                 \
        for (int l = 0; l < B; l++) v[l] = v[l] / size;                                   \
      }                                                                                   \
      memcpy(out + (size_t)ow * B, v, sizeof v);                                          \
    }                                                                                     \
  }
DEFINE_BLOCK_ROW(block_row8, 8)
DEFINE_BLOCK_ROW(block_row16, 16)

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define IC_POOL_AVX2 1
/* NV 8-float vectors per position (B = 8 NV). */
#define DEFINE_BLOCK_ROW_AVX2(NAME, NV)                                                   \
  __attribute__((target("avx2"))) static void NAME(bool max, const pwin *wh,             \
                                                   const pwin *ww, int64_t ow_n, int64_t W, \
                                                   const float *xb, float *out) {         \
    const int B = 8 * NV;                                                                 \
    int64_t ow = 0;                                                                       \
    if (max && wh->e - wh->s == 2) {                                                      \
      /* two window rows, two columns (PP-HGNet's 2 x 2 stride-1 stem pool): the loop's */ \
      /* four maxima in its order, without its bounds */                                  \
      const float *r0 = xb + (size_t)(wh->s * W) * B, *r1 = r0 + (size_t)W * B;           \
      for (; ow < ow_n && ww[ow].e - ww[ow].s == 2; ow++) {                               \
        const size_t o = (size_t)ww[ow].s * B;                                            \
        for (int j = 0; j < NV; j++) {                                                    \
          __m256 m = _mm256_set1_ps(-FLT_MAX);                                            \
          m = _mm256_max_ps(m, _mm256_loadu_ps(r0 + o + 8 * j));                          \
          m = _mm256_max_ps(m, _mm256_loadu_ps(r0 + o + B + 8 * j));                      \
          m = _mm256_max_ps(m, _mm256_loadu_ps(r1 + o + 8 * j));                          \
          m = _mm256_max_ps(m, _mm256_loadu_ps(r1 + o + B + 8 * j));                      \
          _mm256_storeu_ps(out + (size_t)ow * B + 8 * j, m);                              \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
    for (; ow < ow_n; ow++) {                                                             \
      __m256 v[NV];                                                                       \
      for (int j = 0; j < NV; j++) v[j] = _mm256_set1_ps(max ? -FLT_MAX : 0.0f);          \
      const int64_t ws = ww[ow].s, we = ww[ow].e;                                         \
      for (int64_t ih = wh->s; ih < wh->e; ih++) {                                        \
        const float *r = xb + (size_t)(ih * W) * B;                                       \
        if (max) {                                                                        \
          for (int64_t iw = ws; iw < we; iw++) {                                          \
            for (int j = 0; j < NV; j++) {                                                \
              v[j] = _mm256_max_ps(v[j], _mm256_loadu_ps(r + (size_t)iw * B + 8 * j));    \
            }                                                                             \
          }                                                                               \
        } else {                                                                          \
          for (int64_t iw = ws; iw < we; iw++) {                                          \
            for (int j = 0; j < NV; j++) {                                                \
              v[j] = _mm256_add_ps(v[j], _mm256_loadu_ps(r + (size_t)iw * B + 8 * j));    \
            }                                                                             \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
      if (!max) {                                                                         \
        const __m256 size = _mm256_set1_ps((float)(wh->len * ww[ow].len));                \
        for (int j = 0; j < NV; j++) v[j] = _mm256_div_ps(v[j], size);                    \
      }                                                                                   \
      for (int j = 0; j < NV; j++) _mm256_storeu_ps(out + (size_t)ow * B + 8 * j, v[j]);  \
    }                                                                                     \
  }
DEFINE_BLOCK_ROW_AVX2(block_row8_avx2, 1)
DEFINE_BLOCK_ROW_AVX2(block_row16_avx2, 2)

/* The window row's elements into the four blocks' accumulators (NV vectors each), by OP
 * (max or add). */
#define ROWS4_ACC(OP, NV)                                                                 \
  for (int64_t iw = ws; iw < we; iw++) {                                                  \
    for (int j = 0; j < NV; j++) {                                                        \
      const size_t o = (size_t)(iw * B + 8 * j);                                          \
      v[j] = OP(v[j], _mm256_loadu_ps(r0 + o));                                           \
      v[NV + j] = OP(v[NV + j], _mm256_loadu_ps(r1 + o));                                 \
      v[2 * NV + j] = OP(v[2 * NV + j], _mm256_loadu_ps(r2 + o));                         \
      v[3 * NV + j] = OP(v[3 * NV + j], _mm256_loadu_ps(r3 + o));                         \
    }                                                                                     \
  }

/* The same for four channel blocks at once (xb + j * xs, out + j * os for block j): over a
 * large window one block's sum is a chain of dependent adds, four of them side by side keep
 * the adder busy (CRNN's nine pools, squeeze-and-excitation averages over 4 x 160 among them,
 * against the one-block form, alternating: batch 8 1.88-2.67 -> 1.25-1.47 ms per run, batch 1
 * 0.22-0.25 -> 0.13-0.17). Each lane still adds in window order: the bits of the one-block
 * form. */
#define DEFINE_BLOCK_ROWS4_AVX2(NAME, NV)                                                 \
  __attribute__((target("avx2"))) static void NAME(                                      \
      bool max, const pwin *wh, const pwin *ww, int64_t ow_n, int64_t W, const float *xb,  \
      int64_t xs, float *out, int64_t os) {                                               \
    const int B = 8 * NV;                                                                 \
    for (int64_t ow = 0; ow < ow_n; ow++) {                                               \
      __m256 v[4 * NV];                                                                   \
      for (int j = 0; j < 4 * NV; j++) v[j] = _mm256_set1_ps(max ? -FLT_MAX : 0.0f);      \
      const int64_t ws = ww[ow].s, we = ww[ow].e;                                         \
      for (int64_t ih = wh->s; ih < wh->e; ih++) {                                        \
        const float *r = xb + (size_t)(ih * W) * B;                                       \
        const float *r0 = r, *r1 = r + xs, *r2 = r + 2 * xs, *r3 = r + 3 * xs;            \
        if (max) {                                                                        \
          ROWS4_ACC(_mm256_max_ps, NV)                                                    \
        } else {                                                                          \
          ROWS4_ACC(_mm256_add_ps, NV)                                                    \
        }                                                                                 \
      }                                                                                   \
      if (!max) {                                                                         \
        const __m256 size = _mm256_set1_ps((float)(wh->len * ww[ow].len));                \
        for (int j = 0; j < 4 * NV; j++) v[j] = _mm256_div_ps(v[j], size);                \
      }                                                                                   \
      for (int g = 0; g < 4; g++) {                                                       \
        for (int j = 0; j < NV; j++) {                                                    \
          _mm256_storeu_ps(out + (size_t)(g * os + ow * B + 8 * j), v[g * NV + j]);       \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
DEFINE_BLOCK_ROWS4_AVX2(block_rows4_8_avx2, 1)
DEFINE_BLOCK_ROWS4_AVX2(block_rows4_16_avx2, 2)
#endif

/* Plain NCHW to [N][ceil(C/B)][H][W][B], the lanes past C zero. */
static void plain_to_blocked(const float *src, float *dst, const int64_t *dims, int B) {
  int64_t n = dims[0], c = dims[1], cb = (c + B - 1) / B, hw = dims[2] * dims[3];
  for (int64_t i = 0; i < n; i++) {
    for (int64_t k = 0; k < cb; k++) {
      float *d = dst + (size_t)((i * cb + k) * hw * B);
      const float *s = src + (size_t)((i * c + k * B) * hw);
      int nb = c - k * B < B ? (int)(c - k * B) : B;
      if (nb < B) memset(d, 0, sizeof(float) * (size_t)(hw * B));
      for (int b = 0; b < nb; b++) {
        const float *sb = s + (size_t)(b * hw);
        for (int64_t p = 0; p < hw; p++) d[p * B + b] = sb[p];
      }
    }
  }
}

/* X float32 NCHW in any layout; Out blocked like X when marked and the channels fill the
 * blocks, else plain. */
static ic_status run_blocked(ic_kctx *c, const pgeom *g) {
  const pool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  const int in_blk = ic_layout_block(x->layout);
  const int B = in_blk ? in_blk : ic_dnnl_native_block();
  const int64_t cb = (g->c + B - 1) / B, hw = g->h * g->w;
  const bool y_blocked =
      a->blocked_out && g->c % B == 0 && x->layout != IC_LAYOUT_NCHW16C_PAD;
  const int nt = g->n * cb * g->oh >= 4 && hw * g->c >= 4096 ? ic_omp_threads(c->env) : 1;
  size_t n_xb = in_blk ? 0 : (size_t)(g->n * cb * hw * B);
  size_t n_win = (size_t)(g->oh + g->ow), n_row = y_blocked ? 0 : (size_t)(4 * g->ow * B);
  ic_buffer *sb = ic_kscratch(c, sizeof(float) * (n_xb + n_row * (size_t)nt) +
                                     sizeof(pwin) * n_win);
  if (!sb) return c->err->code;
  pwin *wh = (pwin *)sb->data, *ww = wh + g->oh;
  float *xs = (float *)(ww + g->ow), *rows = xs + n_xb;
  axis_windows(a, g->h, g->oh, g->kh, g->sh, g->pt, wh);
  axis_windows(a, g->w, g->ow, g->kw, g->sw, g->pl, ww);
  const float *xb = x->data;
  if (!in_blk) {
    plain_to_blocked(x->data, xs, x->dims, B);
    xb = xs;
  }
  float *yd = y->data;
  const int64_t C = g->c, OH = g->oh, OW = g->ow, W = g->w;
  const bool max = a->max;
  bool avx2 = false;
#ifdef IC_POOL_AVX2
  avx2 = __builtin_cpu_supports("avx2");
#endif
  /* Tasks: one output row of a unit, a unit four channel blocks (large windows, AVX2) or one;
   * per image, cb / 4 units of four, then the rest one by one. */
  const bool fours = avx2 && cb >= 4 && wh[0].len * ww[0].len >= 16;
  const int64_t n4 = fours ? cb / 4 : 0, units = n4 + (cb - 4 * n4);
  const int64_t rows_n = g->n * units * OH;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t q = 0; q < rows_n; q++) {
    const int64_t oh = q % OH, u = (q / OH) % units, n = q / (OH * units);
    const int64_t k = u < n4 ? 4 * u : 4 * n4 + (u - n4);
    const int nk = u < n4 ? 4 : 1;
    const float *xq = xb + (size_t)((n * cb + k) * hw * B);
    int tid = 0;
#ifdef _OPENMP
    tid = omp_get_thread_num();
#endif
    float *out = y_blocked ? yd + (size_t)((((n * cb + k) * OH) + oh) * OW * B)
                           : rows + (size_t)tid * (size_t)(4 * OW * B);
    const int64_t os = y_blocked ? OH * OW * B : OW * B;
#ifdef IC_POOL_AVX2
    if (nk == 4 && B == 16) block_rows4_16_avx2(max, &wh[oh], ww, OW, W, xq, hw * B, out, os);
    else if (nk == 4) block_rows4_8_avx2(max, &wh[oh], ww, OW, W, xq, hw * B, out, os);
    else if (avx2 && B == 16) block_row16_avx2(max, &wh[oh], ww, OW, W, xq, out);
    else if (avx2) block_row8_avx2(max, &wh[oh], ww, OW, W, xq, out);
    else
#endif
    if (B == 16) block_row16(max, &wh[oh], ww, OW, W, xq, out);
    else block_row8(max, &wh[oh], ww, OW, W, xq, out);
    for (int j = 0; j < nk && !y_blocked; j++) {
      const int64_t kj = k + j;
      const int nb = C - kj * B < B ? (int)(C - kj * B) : B;
      const float *oj = out + j * os;
      for (int l = 0; l < nb; l++) {
        float *d = yd + (size_t)(((n * C + kj * B + l) * OH + oh) * OW);
        for (int64_t ow = 0; ow < OW; ow++) d[ow] = oj[ow * B + l];
      }
    }
  }
  ic_buffer_release(sb);
  y->layout = (uint8_t)(y_blocked ? x->layout ? x->layout
                                              : B == 16 ? IC_LAYOUT_NCHW16C : IC_LAYOUT_NCHW8C
                                  : IC_LAYOUT_PLAIN);
  return IC_OK;
}

/* ---------------------------------------------------------------------------------------
 * oneDNN (float32)
 * ------------------------------------------------------------------------------------- */

/* The window oneDNN is asked for: Paddle's, or for adaptive avg over an evenly divisible
 * input, the equal non-overlapping windows its bins then are. */
typedef struct dwin {
  int64_t k[2], s[2], pl[2], pr[2];
} dwin;

/* Whether oneDNN computes Paddle's windows here, and with which parameters: the end
 * paddings are the ones that make oneDNN's output size Paddle's (ceil_mode extends them). */
static bool dnnl_fits(const pool_attrs *a, const pgeom *g, dwin *d) {
  int64_t in[2] = {g->h, g->w}, out[2] = {g->oh, g->ow};
  if (out[0] < 1 || out[1] < 1) return false;
  if (a->adaptive) {
    if (a->max || in[0] % out[0] || in[1] % out[1]) return false;
    for (int i = 0; i < 2; i++) {
      d->k[i] = d->s[i] = in[i] / out[i];
      d->pl[i] = d->pr[i] = 0;
    }
    return true;
  }
  int64_t k[2] = {g->kh, g->kw}, s[2] = {g->sh, g->sw};
  int64_t p0[2] = {g->pt, g->pl}, p1[2] = {g->pb, g->pr};
  for (int i = 0; i < 2; i++) {
    int64_t last = (out[i] - 1) * s[i] - p0[i];
    if (k[i] - p0[i] <= 0 || last >= in[i]) return false;               /* an empty window */
    if (!a->max && !a->exclusive && last + k[i] > in[i] + p0[i]) return false; /* divisor */
    int64_t num = in[i] - k[i] + p0[i] + p1[i];
    d->k[i] = k[i];
    d->s[i] = s[i];
    d->pl[i] = p0[i];
    d->pr[i] = num >= 0 && num / s[i] + 1 == out[i] ? p1[i] : last + k[i] - in[i];
    if (d->pr[i] < 0) return false;
  }
  return true;
}

/* oneDNN's pooling, for NHWC X (NCHW runs the blocked loops above; infer admits a blocked X
 * only for NCHW): source and destination are the plain NHWC tensors themselves. */
typedef struct pool_state {
  int64_t in_dims[4];
  int threads;
  bool use_loops;       /* a window oneDNN cannot express: the plain loops */
  ic_dnnl_rt rt;
  ic_dnnl_prim pool;
  dnnl_memory_t m_src, m_dst;
} pool_state;

static void free_state(void *state) {
  pool_state *s = state;
  if (!s) return;
  ic_dnnl_prim_free(&s->pool);
  if (s->m_src) dnnl_memory_destroy(s->m_src);
  if (s->m_dst) dnnl_memory_destroy(s->m_dst);
  ic_dnnl_rt_free(&s->rt);
  free(s);
}

static ic_status build(ic_kctx *c, const pgeom *g, pool_state *s) {
  const pool_attrs *a = c->attrs;
  dwin d;
  if (!dnnl_fits(a, g, &d)) {
    s->use_loops = true;
    return IC_OK;
  }
  ic_status ret = ic_dnnl_rt_init(c, &s->rt);
  if (ret) return ret;
  int64_t sd[4] = {g->n, g->c, g->h, g->w}, dd[4] = {g->n, g->c, g->oh, g->ow};
  dnnl_memory_desc_t src, dst;
  dnnl_primitive_attr_t attr = NULL;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_dims_t strides = {d.s[0], d.s[1]}, kernel = {d.k[0], d.k[1]}, dil = {0, 0};
  dnnl_dims_t pad_l = {d.pl[0], d.pl[1]}, pad_r = {d.pr[0], d.pr[1]};
  dnnl_alg_kind_t alg = a->max ? dnnl_pooling_max
                        : a->exclusive ? dnnl_pooling_avg_exclude_padding
                                       : dnnl_pooling_avg_include_padding;
  dnnl_pooling_v2_desc_t desc;
  const char *what = "memory_desc_init";
  dnnl_status_t st = ic_dnnl_md4(&src, sd, dnnl_nhwc);
  if (st == dnnl_success) st = ic_dnnl_md4(&dst, dd, dnnl_nhwc);
  if (st != dnnl_success) goto fail;
  what = "primitive_attr";
  if ((st = ic_dnnl_attr(&attr, NULL)) != dnnl_success) goto fail;
  st = dnnl_pooling_v2_forward_desc_init(&desc, dnnl_forward_inference, alg, &src, &dst,
                                         strides, kernel, dil, pad_l, pad_r);
  if (st == dnnl_success) st = dnnl_primitive_desc_create(&pd, &desc, attr, s->rt.eng, NULL);
  if (st == dnnl_unimplemented || st == dnnl_invalid_arguments) {
    pd = NULL;
    s->use_loops = true;
    goto done;
  }
  what = "pooling primitive_desc_create";
  if (st != dnnl_success) {
    pd = NULL;
    goto fail;
  }
  what = "pooling primitive_create";
  if ((st = ic_dnnl_prim_create(&s->rt, pd, &s->pool)) != dnnl_success) goto fail;
  what = "memory_create";
  st = dnnl_out_of_memory;
  if (!(s->m_src = ic_dnnl_mem(&s->rt, &src)) || !(s->m_dst = ic_dnnl_mem(&s->rt, &dst))) {
    goto fail;
  }
  goto done;
fail:
  ret = ic_dnnl_fail(c, st, what);
done:
  if (pd) dnnl_primitive_desc_destroy(pd);
  if (attr) dnnl_primitive_attr_destroy(attr);
  return ret;
}

static ic_status run_dnnl(ic_kctx *c, const pgeom *g, int threads) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  pool_state *s = *c->state;
  if (!s || !ic_dims_equal(4, s->in_dims, x->ndim, x->dims) || s->threads != threads) {
    free_state(s);
    *c->state = NULL;
    if (!(s = calloc(1, sizeof *s))) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
    memcpy(s->in_dims, x->dims, sizeof s->in_dims);
    s->threads = threads;
    ic_status st = build(c, g, s);
    if (st) {
      free_state(s);
      return st;
    }
    *c->state = s;
  }
  if (s->use_loops) {
    loops_f32(c->attrs, g, x->data, y->data);
    return IC_OK;
  }
  ic_buffer *sb = NULL;
  if (s->pool.pad_bytes && !(sb = ic_kscratch(c, s->pool.pad_bytes))) return c->err->code;
  const char *what = "memory_set_data_handle";
  dnnl_status_t st = dnnl_memory_set_data_handle(s->m_src, x->data);
  if (st == dnnl_success) st = dnnl_memory_set_data_handle(s->m_dst, y->data);
  dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, s->m_src}, {DNNL_ARG_DST, s->m_dst}};
  if (st == dnnl_success) {
    what = "pooling execute";
    st = ic_dnnl_exec(&s->rt, &s->pool, sb ? sb->data : NULL, 2, args);
  }
  ic_buffer_release(sb);
  return st == dnnl_success ? IC_OK : ic_dnnl_fail(c, st, what);
}

static ic_status run(ic_kctx *c) {
  const pool_attrs *a = c->attrs;
  pgeom g;
  ic_status st = ic_pool_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  int64_t ny = ic_tensor_numel_(y);
  if (ny == 0) return IC_OK;
  if (ic_tensor_numel_(x) == 0) {
    /* Paddle fills the output of an empty input with NaN. */
    for (int64_t i = 0; i < ny; i++) {
      if (y->dtype == IC_FP32) ((float *)y->data)[i] = NAN;
      else ((double *)y->data)[i] = NAN;
    }
    return IC_OK;
  }
  if (x->dtype == IC_FP64) {
    loops_f64(c->attrs, &g, x->data, y->data);
    return IC_OK;
  }
  if (!a->nhwc) return run_blocked(c, &g);
  int threads = ic_dnnl_threads(c);
  int prev = ic_dnnl_threads_set(threads);
  st = run_dnnl(c, &g, threads);
  ic_dnnl_threads_restore(prev);
  return st;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_BLOCKED | IC_SLOT_PAD16}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_pool2d = {
    .name = "pool2d",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(pool_attrs), .parse = ic_pool2d_parse,
    .infer = infer, .cpu = run,
    .free_state = free_state,
};
