/* The resize ops, as paddle/phi/kernels/cpu/interpolate_kernel.cc (v2) and the fluid
 * interpolate_op.h (v1) compute them.
 *
 * X is [N, C, spatial...] (data_layout "NCHW") or [N, spatial..., C] (any other layout Paddle
 * knows: "NHWC", "NDHWC", and also "NCDHW" and "AnyLayout", which Paddle's kernels read
 * channel-last; Python's API writes "NCHW" for every channel-first input) with 1
 * (linear), 2 (nearest, bilinear, bicubic) or 3 (nearest, trilinear) spatial dims. The
 * output size of each spatial dim, first rule that applies:
 *   1. SizeTensor: one 1-element integer tensor per spatial dim;
 *   2. OutSize (an int32 tensor of one value per spatial dim), else
 *      the scale: the Scale tensor (one value for all dims, or one per dim; v1: its first
 *      value), else the `scale` attribute (v1: a float, used when > 0; v2: a list, used when
 *      it has a value per dim, or for 1 spatial dim one value), giving
 *      out = int(float(in) * scale), else the out_d / out_h / out_w attributes.
 * Every size must be > 0 and every scale that is used > 0. When every output size equals
 * the input's, the output is X itself (a copy), whatever the method.
 *
 * The source coordinate of output index k along a dim is ratio * k (align_corners) or
 * ratio * (k + 0.5) - 0.5 (half-pixel), with ratio, in float,
 *   align_corners:    (in - 1) / (out - 1)
 *   a scale given:    1 / scale, even when OutSize set the size (Paddle 3.3.1 does this for
 *                     v1 too, checked by the oracle cases interp_*), except for the v1 ops
 *                     that only Paddle 2.6 registers, bicubic_interp and trilinear_interp,
 *                     whose fluid kernel takes in / out (oracle case
 *                     interp_v1_bicubic_trilinear)
 *   otherwise:        in / out
 * and 0 when out is 1. Then:
 *   nearest    index int(ratio * k + 0.5) (align_corners) or int(ratio * k);
 *   linear,    the two neighbours of the half-pixel coordinate (align_mode 0 without
 *   bilinear,  align_corners) or of ratio * k (otherwise), weights 1 - d and d, the upper
 *   trilinear  index clamped to in - 1, products summed in Paddle's order;
 *   bicubic    Keys' cubic convolution with A = -0.75 on the 4 x 4 neighbours (indices
 *              clamped to the image), rows first, coordinate ratio * k (align_corners) or
 *              half-pixel; align_mode unused.
 * Indices are also clamped where Paddle would read outside X (OutSize overriding a scale
 * that still sets the ratio). Arithmetic is float (ratios, weights) and X's dtype (sums),
 * as in Paddle. nearest moves elements of any dtype; linear, bilinear and trilinear take
 * float32 / float64 / uint8 (the float sum truncated to uint8; uint8 linear takes the lower
 * neighbour, as Paddle 3.3.1 does), bicubic float32 / float64. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/interp.h"
#include "kernels/cpu/onednn.h"

const ic_slotdef ic_interp_inputs[IC_INTERP_N_INPUTS] = {
    {"X", 0},
    {"OutSize", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"SizeTensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"Scale", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
};
const ic_slotdef ic_interp_nearest_inputs[IC_INTERP_N_INPUTS] = {
    {"X", IC_SLOT_BLOCKED | IC_SLOT_PAD16},
    {"OutSize", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"SizeTensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"Scale", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
};
const ic_slotdef ic_interp_outputs[1] = {{"Out", 0}};

static const char *const k_methods[] = {"nearest", "linear", "bilinear", "trilinear", "bicubic"};

ic_status ic_interp_parse(ic_attr_reader *r, ic_interp_attrs *a, bool v2,
                          ic_interp_method dflt) {
  a->v2 = v2;
  const char *m = ic_ar_str(r, "interp_method", k_methods[dflt]);
  const char *layout = ic_ar_str(r, "data_layout", "NCHW");
  a->align_corners = ic_ar_bool(r, "align_corners", true);
  a->align_mode = (int)ic_ar_int(r, "align_mode", 1);
  a->out_size[0] = ic_ar_int(r, "out_d", -1);
  a->out_size[1] = ic_ar_int(r, "out_h", -1);
  a->out_size[2] = ic_ar_int(r, "out_w", -1);
  if (v2) {
    const double *v;
    size_t n;
    if (ic_ar_floats(r, "scale", false, &v, &n)) {
      if (n > 3) return ic_ar_fail(r, "scale", "has %zu values, expected at most 3", n);
      for (size_t i = 0; i < n; i++) a->scale[i] = (float)v[i];
      a->n_scale = n;
    }
  } else {
    a->scale[0] = (float)ic_ar_float(r, "scale", 0.0);
    a->n_scale = 1;
  }
  if (r->st) return r->st;
  a->method = (ic_interp_method)-1;
  for (int i = 0; i < 5; i++) {
    if (m && !strcmp(m, k_methods[i])) a->method = (ic_interp_method)i;
  }
  if ((int)a->method < 0) {
    return ic_ar_fail(r, "interp_method",
                      "is \"%s\", expected nearest, linear, bilinear, trilinear or bicubic", m);
  }
  /* v1: nearest and bilinear as Paddle 3.3.1 checks them, and the op type's own method (the
   * v1 bicubic_interp and trilinear_interp that only Paddle 2.6 runs) */
  if (!v2 && a->method != IC_INTERP_NEAREST && a->method != IC_INTERP_BILINEAR &&
      a->method != dflt) {
    if (dflt == IC_INTERP_NEAREST || dflt == IC_INTERP_BILINEAR) {
      return ic_ar_fail(r, "interp_method", "is \"%s\", expected nearest or bilinear", m);
    }
    return ic_ar_fail(r, "interp_method", "is \"%s\", expected nearest, bilinear or %s", m,
                      k_methods[dflt]);
  }
  /* Paddle's kernels read the channel first only for "NCHW" (any rank): every other layout
   * they accept, "NCDHW" and "AnyLayout" included, is channel-last (funcs::ExtractNCDWH). */
  if (!strcmp(layout, "NCHW")) {
    a->nhwc = false;
  } else if (!strcmp(layout, "NHWC") || !strcmp(layout, "NDHWC") || !strcmp(layout, "NCDHW") ||
             !strcmp(layout, "AnyLayout")) {
    a->nhwc = true;
  } else {
    return ic_ar_fail(r, "data_layout",
                      "is \"%s\", expected NCHW, NHWC, NDHWC, NCDHW or AnyLayout", layout);
  }
  if (a->align_mode != 0 && a->align_mode != 1) {
    return ic_ar_fail(r, "align_mode", "is %d, expected 0 or 1", a->align_mode);
  }
  a->blocked_out = ic_ar_bool(r, "ic_blocked_out", false);
  a->blocked_pad = ic_ar_bool(r, "ic_blocked_pad", false);
  return r->st;
}

typedef ic_interp_geom geom;

static const char *const k_dim_names[3][3] = {{"w"}, {"h", "w"}, {"d", "h", "w"}};

ic_status ic_interp_geometry(ic_kctx *c, geom *g) {
  const ic_interp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_INTERP_X, 0);
  int want = a->method == IC_INTERP_LINEAR ? 3
             : a->method == IC_INTERP_TRILINEAR ? 5
             : a->method == IC_INTERP_NEAREST ? (x->ndim == 5 ? 5 : 4)
                                               : 4;
  if (x->ndim != want) {
    return ic_kfail_in(c, IC_INTERP_X, 0, "expected rank %d for interp_method %s%s", want,
                       k_methods[a->method],
                       a->method == IC_INTERP_NEAREST ? " (4, or 5 for 3-D)" : "");
  }
  if (a->method != IC_INTERP_NEAREST) {
    /* Paddle's CPU kernels: linear, bilinear and trilinear also take uint8, bicubic not */
    ic_status st = ic_kcheck_dtype(c, IC_INTERP_X, 0,
                                   a->method == IC_INTERP_BICUBIC
                                       ? IC_DT_FLOAT
                                       : IC_DT_FLOAT | IC_DT(IC_UINT8));
    if (st) return st;
  }
  const int nd = g->nd = want - 2;
  g->n = x->dims[0];
  g->c = a->nhwc ? x->dims[want - 1] : x->dims[1];
  for (int i = 0; i < nd; i++) {
    g->in[i] = x->dims[a->nhwc ? 1 + i : 2 + i];
    g->out[i] = a->out_size[3 - nd + i];
    g->scale[i] = -1.f;
    if (g->in[i] > INT32_MAX) return ic_kfail_in(c, IC_INTERP_X, 0, "expected dims below 2^31");
  }
  const char *const *dn = k_dim_names[nd - 1];
  const ic_kslot *st = &c->in[IC_INTERP_SIZETENSOR];
  const ic_tensor *os = ic_in(c, IC_INTERP_OUTSIZE, 0);
  const ic_tensor *sc = ic_in(c, IC_INTERP_SCALE, 0);
  if (st->n > 0) {
    if (st->n != (size_t)nd) {
      return ic_kfail(c, IC_ERR_SHAPE,
                      "input SizeTensor holds %zu tensors, expected %d (one per spatial dim)",
                      st->n, nd);
    }
    for (int i = 0; i < nd; i++) {
      const ic_tensor *t = st->t[i];
      if ((t->dtype != IC_INT32 && t->dtype != IC_INT64) || ic_numel(t->ndim, t->dims) != 1) {
        return ic_kfail_in(c, IC_INTERP_SIZETENSOR, (size_t)i,
                           "expected one int32 or int64 value (out_%s)", dn[i]);
      }
      g->out[i] = ic_read_i64(t, 0);
    }
  } else {
    bool have = false;
    if (sc) {
      int64_t k = ic_numel(sc->ndim, sc->dims);
      if ((sc->dtype != IC_FP32 && sc->dtype != IC_FP64) || k < 1 ||
          (a->v2 && k > 1 && k < nd)) {
        return ic_kfail_in(c, IC_INTERP_SCALE, 0,
                           "expected a float32 tensor of 1 or %d values (the scale)", nd);
      }
      for (int i = 0; i < nd; i++) {
        g->scale[i] = (float)ic_read_f64(sc, a->v2 && k > 1 ? i : 0);
        if (!(g->scale[i] > 0)) {
          return ic_kfail_in(c, IC_INTERP_SCALE, 0, "holds scale %g, expected > 0",
                             (double)g->scale[i]);
        }
      }
      have = true;
    } else if (a->v2 && (nd == 1 ? a->n_scale > 0 : a->n_scale > 1)) {
      if (a->n_scale < (size_t)nd) {
        return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                        "attribute 'scale' has %zu values, expected %d (one per spatial dim)",
                        a->n_scale, nd);
      }
      for (int i = 0; i < nd; i++) {
        g->scale[i] = a->scale[i];
        if (!(g->scale[i] > 0)) {
          return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                          "attribute 'scale' holds %g for out_%s, expected > 0",
                          (double)g->scale[i], dn[i]);
        }
      }
      have = true;
    } else if (!a->v2 && a->scale[0] > 0) {
      for (int i = 0; i < nd; i++) g->scale[i] = a->scale[0];
      have = true;
    }
    if (have) {
      for (int i = 0; i < nd; i++) g->out[i] = (int64_t)((float)g->in[i] * g->scale[i]);
    }
    if (os) {
      if ((os->dtype != IC_INT32 && os->dtype != IC_INT64) ||
          ic_numel(os->ndim, os->dims) != nd) {
        return ic_kfail_in(c, IC_INTERP_OUTSIZE, 0, "expected %d int32 values (the output size)",
                           nd);
      }
      for (int i = 0; i < nd; i++) g->out[i] = ic_read_i64(os, i);
    }
  }
  for (int i = 0; i < nd; i++) {
    if (g->out[i] <= 0 || g->out[i] > INT32_MAX) {
      return ic_kfail_in(c, IC_INTERP_X, 0,
                         "gives out_%s = %lld (from %s), expected a size > 0 and below 2^31",
                         dn[i], (long long)g->out[i],
                         st->n ? "SizeTensor"
                         : os  ? "OutSize"
                         : g->scale[i] > 0 || sc ? "the scale"
                                                 : "the out_d / out_h / out_w attributes");
    }
    float r = 0.f;
    if (g->out[i] > 1) {
      if (a->align_corners) {
        r = (float)(g->in[i] - 1) / (float)(g->out[i] - 1);
      } else if (g->scale[i] > 0 && !a->size_ratio) {
        r = (float)(1. / g->scale[i]);
      } else {
        r = (float)g->in[i] / (float)g->out[i];
      }
    }
    g->ratio[i] = r;
  }
  return IC_OK;
}

ic_status ic_interp_infer(ic_kctx *c) {
  const ic_interp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_INTERP_X, 0);
  geom g;
  ic_status st = ic_interp_geometry(c, &g);
  if (st) return st;
  int64_t d[5];
  d[0] = g.n;
  d[a->nhwc ? g.nd + 1 : 1] = g.c;
  for (int i = 0; i < g.nd; i++) d[(a->nhwc ? 1 : 2) + i] = g.out[i];
  /* A channel-blocked X (the nearest ops' slot takes one): float32 NCHW, 2 spatial dims. */
  if (x->layout && (x->dtype != IC_FP32 || g.nd != 2 || a->nhwc ||
                    a->method != IC_INTERP_NEAREST || !ic_layout_block(x->layout))) {
    return ic_kfail_in(c, IC_INTERP_X, 0,
                       "expected the plain layout: a blocked input must be float32 NCHW "
                       "(data_layout NCHW) with nearest interpolation");
  }
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, x->dtype, g.nd + 2, d);
  /* Marked ic_blocked_pad: ask for storage with the channels padded to 16 (a request to
   * ic_tensor_alloc; the kernel sets the layout it writes). */
  if (a->blocked_out && a->blocked_pad && x->dtype == IC_FP32 && g.nd == 2 && !a->nhwc &&
      a->method == IC_INTERP_NEAREST && g.c % 16) {
    out->layout = IC_LAYOUT_NCHW16C_PAD;
  }
  return IC_OK;
}

/* Element strides of the logical [N, C, D, H, W] (missing spatial dims of size 1). */
static void strides(bool nhwc, int64_t c, const int64_t sp[3], int64_t s[5]) {
  /* s: n, c, d, h, w */
  if (nhwc) {
    s[1] = 1;
    s[4] = c;
    s[3] = sp[2] * c;
    s[2] = sp[1] * sp[2] * c;
    s[0] = sp[0] * sp[1] * sp[2] * c;
  } else {
    s[4] = 1;
    s[3] = sp[2];
    s[2] = sp[1] * sp[2];
    s[1] = sp[0] * sp[1] * sp[2];
    s[0] = c * s[1];
  }
}

/* One axis of linear interpolation: neighbours lo, hi and their weights w0 = 1 - d, w1 = d. */
typedef struct lin {
  int64_t lo, hi;
  float w0, w1;
} lin;

static void lin_axis(float ratio, int64_t in, int64_t out, bool align_flag, lin *t) {
  for (int64_t k = 0; k < out; k++) {
    ic_interp_lin(ratio, in, k, align_flag, &t[k].lo, &t[k].hi, &t[k].w0, &t[k].w1);
  }
}

static void nearest_axis(float ratio, int64_t in, int64_t out, bool align, int64_t *t) {
  for (int64_t k = 0; k < out; k++) t[k] = ic_interp_nearest(ratio, in, k, align);
}

IC_INTERP_DEFINE_CUBIC(float)
IC_INTERP_DEFINE_CUBIC(double)

static inline int64_t clampi(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }

/* The float kernels for element type T. tabs: per-axis tables (lin or int64 index). */
#define DEFINE_FLOAT_KERNELS(T)                                                            \
  static void linear_##T(const T *x, T *o, const geom *g, const int64_t *is,              \
                         const int64_t *os, const lin *tw) {                               \
    for (int64_t n = 0; n < g->n; n++)                                                     \
      for (int64_t ch = 0; ch < g->c; ch++) {                                              \
        const T *xb = x + n * is[0] + ch * is[1];                                          \
        T *ob = o + n * os[0] + ch * os[1];                                                \
        for (int64_t l = 0; l < g->out[0]; l++) {                                          \
          const lin *w = &tw[l];                                                           \
          ob[l * os[4]] = xb[w->lo * is[4]] * w->w0 + xb[w->hi * is[4]] * w->w1;           \
        }                                                                                  \
      }                                                                                    \
  }                                                                                        \
  static void bilinear_##T(const T *x, T *o, const geom *g, const int64_t *is,            \
                           const int64_t *os, const lin *th, const lin *tw) {              \
    for (int64_t n = 0; n < g->n; n++)                                                     \
      for (int64_t ch = 0; ch < g->c; ch++) {                                              \
        const T *xb = x + n * is[0] + ch * is[1];                                          \
        T *ob = o + n * os[0] + ch * os[1];                                                \
        for (int64_t k = 0; k < g->out[0]; k++) {                                          \
          const lin *h = &th[k];                                                           \
          const T *r0 = xb + h->lo * is[3], *r1 = xb + h->hi * is[3];                      \
          for (int64_t l = 0; l < g->out[1]; l++) {                                        \
            const lin *w = &tw[l];                                                         \
            const int64_t x0 = w->lo * is[4], x1 = w->hi * is[4];                          \
            ob[k * os[3] + l * os[4]] = r0[x0] * h->w0 * w->w0 + r1[x0] * h->w1 * w->w0 +  \
                                        r0[x1] * h->w0 * w->w1 + r1[x1] * h->w1 * w->w1;   \
          }                                                                                \
        }                                                                                  \
      }                                                                                    \
  }                                                                                        \
  static void trilinear_##T(const T *x, T *o, const geom *g, const int64_t *is,           \
                            const int64_t *os, const lin *td, const lin *th,               \
                            const lin *tw) {                                               \
    for (int64_t n = 0; n < g->n; n++)                                                     \
      for (int64_t ch = 0; ch < g->c; ch++) {                                              \
        const T *xb = x + n * is[0] + ch * is[1];                                          \
        T *ob = o + n * os[0] + ch * os[1];                                                \
        for (int64_t j = 0; j < g->out[0]; j++) {                                          \
          const lin *d = &td[j];                                                           \
          for (int64_t k = 0; k < g->out[1]; k++) {                                        \
            const lin *h = &th[k];                                                         \
            const T *p00 = xb + d->lo * is[2] + h->lo * is[3];                             \
            const T *p01 = xb + d->lo * is[2] + h->hi * is[3];                             \
            const T *p10 = xb + d->hi * is[2] + h->lo * is[3];                             \
            const T *p11 = xb + d->hi * is[2] + h->hi * is[3];                             \
            for (int64_t l = 0; l < g->out[2]; l++) {                                      \
              const lin *w = &tw[l];                                                       \
              const int64_t x0 = w->lo * is[4], x1 = w->hi * is[4];                        \
              ob[j * os[2] + k * os[3] + l * os[4]] =                                      \
                  p00[x0] * d->w0 * h->w0 * w->w0 + p00[x1] * d->w0 * h->w0 * w->w1 +      \
                  p01[x0] * d->w0 * h->w1 * w->w0 + p01[x1] * d->w0 * h->w1 * w->w1 +      \
                  p10[x0] * d->w1 * h->w0 * w->w0 + p10[x1] * d->w1 * h->w0 * w->w1 +      \
                  p11[x0] * d->w1 * h->w1 * w->w0 + p11[x1] * d->w1 * h->w1 * w->w1;       \
            }                                                                              \
          }                                                                                \
        }                                                                                  \
      }                                                                                    \
  }
DEFINE_FLOAT_KERNELS(float)
DEFINE_FLOAT_KERNELS(double)
/* uint8: the same float weights; the float sum converts to uint8 by truncation, as Paddle's
 * kernel assigns it to its T */
DEFINE_FLOAT_KERNELS(uint8_t)

#define DEFINE_CUBIC_KERNEL(T)                                                             \
  static void bicubic_##T(const T *x, T *o, const geom *g, const int64_t *is,             \
                          const int64_t *os, bool align) {                                 \
    const int64_t H = g->in[0], W = g->in[1];                                              \
    for (int64_t k = 0; k < g->out[0]; k++) {                                              \
      T yn = align ? (T)(g->ratio[0] * (float)k) : (T)(g->ratio[0] * (k + 0.5) - 0.5);     \
      int64_t iy = (int64_t)floorf((float)yn);                                             \
      const T yt = yn - (T)iy;                                                             \
      for (int64_t l = 0; l < g->out[1]; l++) {                                            \
        T xn = align ? (T)(g->ratio[1] * (float)l) : (T)(g->ratio[1] * (l + 0.5) - 0.5);   \
        int64_t ix = (int64_t)floorf((float)xn);                                           \
        const T xt = xn - (T)ix;                                                           \
        int64_t ax[4], ay[4];                                                              \
        for (int q = 0; q < 4; q++) {                                                      \
          ax[q] = clampi(ix - 1 + q, W - 1) * is[4];                                       \
          ay[q] = clampi(iy - 1 + q, H - 1) * is[3];                                       \
        }                                                                                  \
        for (int64_t n = 0; n < g->n; n++)                                                 \
          for (int64_t ch = 0; ch < g->c; ch++) {                                          \
            const T *xb = x + n * is[0] + ch * is[1];                                      \
            T cf[4];                                                                       \
            for (int q = 0; q < 4; q++) {                                                  \
              const T *r = xb + ay[q];                                                     \
              cf[q] = ic_interp_cubic_##T(r[ax[0]], r[ax[1]], r[ax[2]], r[ax[3]], xt);             \
            }                                                                              \
            o[n * os[0] + ch * os[1] + k * os[3] + l * os[4]] =                            \
                ic_interp_cubic_##T(cf[0], cf[1], cf[2], cf[3], yt);                               \
          }                                                                                \
      }                                                                                    \
    }                                                                                      \
  }
DEFINE_CUBIC_KERNEL(float)
DEFINE_CUBIC_KERNEL(double)

/* nearest, any element size: the table per axis holds source indices; elements move as
 * integers of their width. Where the output's rows are contiguous (os[4] == 1), an output
 * row whose source row is the previous one's (upsampling repeats each source row) is a copy
 * of the row just written, and the gather runs with unit strides. */
#define DEFINE_NEAREST(NAME, U)                                                             \
  static void NAME(const void *xv, void *ov, const geom *g, const int64_t *is,             \
                   const int64_t *os, int64_t *const t[3], int threads) {                   \
    const U *x = xv;                                                                        \
    U *o = ov;                                                                              \
    const int64_t od = g->nd == 3 ? g->out[0] : 1;                                          \
    const int64_t oh = g->out[g->nd - 2], ow = g->out[g->nd - 1];                           \
    const bool unit = os[4] == 1 && is[4] == 1;                                             \
    const int64_t planes = g->n * g->c;                                                     \
    if (!unit) threads = 1; /* NHWC: channels interleave within cache lines */              \
    _Pragma("omp parallel for num_threads(threads) schedule(static) if (threads > 1)")      \
    for (int64_t q = 0; q < planes; q++) {                                                  \
      const int64_t n = q / g->c, ch = q % g->c;                                            \
      for (int64_t j = 0; j < od; j++) {                                                    \
        for (int64_t k = 0; k < oh; k++) {                                                  \
          const U *src = x + n * is[0] + ch * is[1] + (g->nd == 3 ? t[0][j] * is[2] : 0) +  \
                         t[1][k] * is[3];                                                   \
          U *dst = o + n * os[0] + ch * os[1] + j * os[2] + k * os[3];                      \
          if (unit && k > 0 && t[1][k] == t[1][k - 1]) {                                    \
            memcpy(dst, dst - os[3], (size_t)ow * sizeof(U));                               \
          } else if (unit) {                                                                \
            const int64_t *tw = t[2];                                                       \
            for (int64_t l = 0; l < ow; l++) dst[l] = src[tw[l]];                           \
          } else {                                                                          \
            for (int64_t l = 0; l < ow; l++) dst[l * os[4]] = src[t[2][l] * is[4]];         \
          }                                                                                 \
        }                                                                                   \
      }                                                                                     \
    }                                                                                       \
  }
DEFINE_NEAREST(nearest_u8, uint8_t)
DEFINE_NEAREST(nearest_u16, uint16_t)
DEFINE_NEAREST(nearest_u32, uint32_t)
DEFINE_NEAREST(nearest_u64, uint64_t)

/* nearest on a channel-blocked float32 X ([N][CB][H][W][BLK], infer checked it): Out in X's
 * layout when keep (output rows gathered BLK floats at a time, a repeated source row copied
 * from the row above), else plain. t[1], t[2]: the source row and column of each output one.
 * Channel blocks are shared across the threads. Moves values only: the bits of the plain
 * kernel. */
static void nearest_blocked(const float *x, float *o, const geom *g, int blk, bool keep,
                            int64_t *const t[3], int threads) {
  const int64_t ch = g->c, cb = (ch + blk - 1) / blk;
  const int64_t ih = g->in[0], iw = g->in[1], oh = g->out[0], ow = g->out[1];
  const int64_t *th = t[1], *tw = t[2];
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
  for (int64_t q = 0; q < g->n * cb; q++) {
    const float *xp = x + (size_t)(q * ih * iw * blk);
    if (keep) {
      float *op = o + (size_t)(q * oh * ow * blk);
      for (int64_t r = 0; r < oh; r++) {
        float *dst = op + r * ow * blk;
        if (r > 0 && th[r] == th[r - 1]) {
          memcpy(dst, dst - ow * blk, (size_t)(ow * blk) * sizeof(float));
          continue;
        }
        const float *src = xp + th[r] * iw * blk;
        for (int64_t l = 0; l < ow; l++) {
          memcpy(dst + l * blk, src + tw[l] * blk, (size_t)blk * sizeof(float));
        }
      }
      continue;
    }
    const int64_t i = q / cb, k = q % cb;
    const int nb = ch - k * blk < blk ? (int)(ch - k * blk) : blk;
    for (int b = 0; b < nb; b++) {
      float *op = o + (size_t)((i * ch + k * blk + b) * oh * ow);
      for (int64_t r = 0; r < oh; r++) {
        float *dst = op + r * ow;
        if (r > 0 && th[r] == th[r - 1]) {
          memcpy(dst, dst - ow, (size_t)ow * sizeof(float));
          continue;
        }
        const float *src = xp + th[r] * iw * blk + b;
        for (int64_t l = 0; l < ow; l++) dst[l] = src[tw[l] * blk];
      }
    }
  }
}

ic_status ic_interp_cpu(ic_kctx *c) {
  const ic_interp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_INTERP_X, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  geom g;
  ic_status st = ic_interp_geometry(c, &g);
  if (st) return st;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t numel = ic_numel(out->ndim, out->dims);
  /* infer asked for padded storage (ic_blocked_pad); what is written is decided here */
  const bool pad_room = out->layout == IC_LAYOUT_NCHW16C_PAD && out->buf &&
                        out->buf->bytes >= (size_t)ic_tensor_storage_elems(out) * sizeof(float);
  out->layout = IC_LAYOUT_PLAIN;
  if (numel == 0) return IC_OK;
  /* A blocked X keeps its layout in Out when this op is marked (padded channels only where
   * Out has room for them); otherwise Out is plain. */
  const int blk = ic_layout_block(x->layout);
  const bool keep = blk && a->blocked_out && (x->layout != IC_LAYOUT_NCHW16C_PAD || pad_room);
  bool same = true;
  for (int i = 0; i < g.nd; i++) same = same && g.in[i] == g.out[i];
  if (same && keep) {
    memcpy(out->data, x->data, (size_t)ic_tensor_storage_elems(x) * es);
    out->layout = x->layout;
    return IC_OK;
  }
  if (same && blk) {
    ic_blocked_to_plain(x->data, out->data, x->dims, blk);
    return IC_OK;
  }
  if (same) {
    memcpy(out->data, x->data, (size_t)numel * es);
    return IC_OK;
  }
  /* Spatial sizes padded to 3 dims (d, h, w). */
  int64_t isp[3] = {1, 1, 1}, osp[3] = {1, 1, 1};
  for (int i = 0; i < g.nd; i++) {
    isp[3 - g.nd + i] = g.in[i];
    osp[3 - g.nd + i] = g.out[i];
  }
  int64_t is[5], os[5];
  strides(a->nhwc, g.c, isp, is);
  strides(a->nhwc, g.c, osp, os);
  int64_t total = 0;
  for (int i = 0; i < g.nd; i++) total += g.out[i];
  ic_buffer *buf = ic_kscratch(c, (size_t)(total + 3) * (sizeof(lin) + sizeof(int64_t)));
  if (!buf) return c->err->code;
  lin *lt[3] = {NULL, NULL, NULL};
  int64_t *nt[3] = {NULL, NULL, NULL};
  lin *lp = buf->data;
  int64_t *np = (int64_t *)(lp + total + 3);
  const bool align_flag = a->align_mode == 0 && !a->align_corners;
  for (int i = 0; i < g.nd; i++) {
    lt[i] = lp;
    nt[3 - g.nd + i] = np;
    lin_axis(g.ratio[i], g.in[i], g.out[i], align_flag, lp);
    nearest_axis(g.ratio[i], g.in[i], g.out[i], a->align_corners, np);
    lp += g.out[i];
    np += g.out[i];
  }
  for (int i = 0; i < 3 - g.nd; i++) {
    nt[i] = np; /* a missing leading dim: index 0 */
    *np++ = 0;
  }
  const bool f64 = x->dtype == IC_FP64, u8 = x->dtype == IC_UINT8;
  switch (a->method) {
    case IC_INTERP_NEAREST: {
      /* Each (image, channel) plane on its own: the kernel's threads share them out. */
      const int th = ic_numel(out->ndim, out->dims) >= 65536 ? ic_omp_threads(c->env) : 1;
      if (blk) {
        nearest_blocked(x->data, out->data, &g, blk, keep, nt, th);
        if (keep) out->layout = x->layout;
      } else if (es == 1) nearest_u8(x->data, out->data, &g, is, os, nt, th);
      else if (es == 2) nearest_u16(x->data, out->data, &g, is, os, nt, th);
      else if (es == 4) nearest_u32(x->data, out->data, &g, is, os, nt, th);
      else nearest_u64(x->data, out->data, &g, is, os, nt, th);
      break;
    }
    case IC_INTERP_LINEAR:
      if (u8) {
        /* Paddle 3.3.1's linear kernel keeps its weights in T: for uint8 the fraction
         * truncates to 0, so each output is its lower neighbour (oracle case
         * au_small_int_paths); bilinear and trilinear keep float weights. */
        for (int64_t k = 0; k < g.out[0]; k++) lt[0][k].w0 = 1.f, lt[0][k].w1 = 0.f;
        linear_uint8_t(x->data, out->data, &g, is, os, lt[0]);
      }
      else if (f64) linear_double(x->data, out->data, &g, is, os, lt[0]);
      else linear_float(x->data, out->data, &g, is, os, lt[0]);
      break;
    case IC_INTERP_BILINEAR:
      if (u8) bilinear_uint8_t(x->data, out->data, &g, is, os, lt[0], lt[1]);
      else if (f64) bilinear_double(x->data, out->data, &g, is, os, lt[0], lt[1]);
      else bilinear_float(x->data, out->data, &g, is, os, lt[0], lt[1]);
      break;
    case IC_INTERP_TRILINEAR:
      if (u8) trilinear_uint8_t(x->data, out->data, &g, is, os, lt[0], lt[1], lt[2]);
      else if (f64) trilinear_double(x->data, out->data, &g, is, os, lt[0], lt[1], lt[2]);
      else trilinear_float(x->data, out->data, &g, is, os, lt[0], lt[1], lt[2]);
      break;
    case IC_INTERP_BICUBIC:
      if (f64) bicubic_double(x->data, out->data, &g, is, os, a->align_corners);
      else bicubic_float(x->data, out->data, &g, is, os, a->align_corners);
      break;
  }
  ic_buffer_release(buf);
  return IC_OK;
}

/* ---- gradients (interp.h) ---- */

const ic_slotdef ic_interp_grad_inputs[IC_INTERP_GRAD_N_INPUTS] = {
    {"X", IC_SLOT_NO_BUFFER},
    {"OutSize", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"SizeTensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
    {"Scale", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"Out@GRAD", 0},
};
const ic_slotdef ic_interp_grad_outputs[1] = {{"X@GRAD", 0}};

ic_status ic_interp_grad_infer(ic_kctx *c) {
  const ic_interp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_INTERP_X, 0), *g = ic_in(c, IC_INTERP_GRAD_N_INPUTS - 1, 0);
  ic_status st = ic_kcheck_dtype(c, IC_INTERP_GRAD_N_INPUTS - 1, 0, IC_DT_FLOAT);
  if (st) return st;
  geom gm;
  if ((st = ic_interp_geometry(c, &gm))) return st;
  int64_t d[5];
  d[0] = gm.n;
  d[a->nhwc ? gm.nd + 1 : 1] = gm.c;
  for (int i = 0; i < gm.nd; i++) d[(a->nhwc ? 1 : 2) + i] = gm.out[i];
  if (!ic_dims_equal(g->ndim, g->dims, gm.nd + 2, d)) {
    char s[128];
    return ic_kfail_in(c, IC_INTERP_GRAD_N_INPUTS - 1, 0, "expected dims %s (the op's Out)",
                       ic_dims_str(gm.nd + 2, d, s, sizeof s));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* Keys' cubic coefficients (A = -0.75) of the 4 neighbours at t, as ic_interp_cubic_T. */
static void cubic_coefs(double t, double cf[4]) {
  const double A = -0.75, u = t + 1.0, v = 1.0 - t, w = v + 1.0;
  cf[0] = ((A * u - 5 * A) * u + 8 * A) * u - 4 * A;
  cf[1] = ((A + 2) * t - (A + 3)) * t * t + 1;
  cf[2] = ((A + 2) * v - (A + 3)) * v * v + 1;
  cf[3] = ((A * w - 5 * A) * w + 8 * A) * w - 4 * A;
}

/* The source cell and offset of output index k along an axis, as the bicubic forward computes
 * them in X's dtype. */
static void cubic_src(bool f64, float ratio, int64_t k, bool align, int64_t *i, double *t) {
  if (f64) {
    const double v = align ? (double)(ratio * (float)k) : (double)(ratio * (k + 0.5) - 0.5);
    *i = (int64_t)floorf((float)v);
    *t = v - (double)*i;
  } else {
    const float v = align ? ratio * (float)k : (float)(ratio * (k + 0.5) - 0.5);
    *i = (int64_t)floorf(v);
    *t = (double)(v - (float)*i);
  }
}

/* bicubic_interp_v2_grad: each Out@GRAD element times the 4 x 4 products of the row and
 * column coefficients, added onto the (clamped) neighbours the forward read. */
static void bicubic_grad(const ic_tensor *g, double *acc, const geom *gm, const int64_t *is,
                         const int64_t *os, bool align) {
  const int64_t H = gm->in[0], W = gm->in[1];
  const bool f64 = g->dtype == IC_FP64;
  for (int64_t k = 0; k < gm->out[0]; k++) {
    int64_t iy;
    double yt, cy[4];
    cubic_src(f64, gm->ratio[0], k, align, &iy, &yt);
    cubic_coefs(yt, cy);
    for (int64_t l = 0; l < gm->out[1]; l++) {
      int64_t ix;
      double xt, cx[4];
      cubic_src(f64, gm->ratio[1], l, align, &ix, &xt);
      cubic_coefs(xt, cx);
      for (int64_t n = 0; n < gm->n; n++) {
        for (int64_t ch = 0; ch < gm->c; ch++) {
          const int64_t oi = n * os[0] + ch * os[1] + k * os[3] + l * os[4];
          const double gv = f64 ? ((const double *)g->data)[oi]
                                : (double)((const float *)g->data)[oi];
          for (int p = 0; p < 4; p++) {
            const int64_t row = n * is[0] + ch * is[1] + clampi(iy - 1 + p, H - 1) * is[3];
            for (int q = 0; q < 4; q++) {
              acc[row + clampi(ix - 1 + q, W - 1) * is[4]] += gv * cy[p] * cx[q];
            }
          }
        }
      }
    }
  }
}

ic_status ic_interp_grad_cpu(ic_kctx *c) {
  const ic_interp_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, IC_INTERP_GRAD_N_INPUTS - 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  geom gm;
  ic_status st = ic_interp_geometry(c, &gm);
  if (st) return st;
  const int64_t nx = ic_tensor_numel_(dx);
  /* Spatial sizes padded to 3 dims (d, h, w), as the forward kernel walks them. */
  int64_t isp[3] = {1, 1, 1}, osp[3] = {1, 1, 1}, total = 0;
  for (int i = 0; i < gm.nd; i++) {
    isp[3 - gm.nd + i] = gm.in[i];
    osp[3 - gm.nd + i] = gm.out[i];
    total += gm.out[i];
  }
  int64_t is[5], os[5];
  strides(a->nhwc, gm.c, isp, is);
  strides(a->nhwc, gm.c, osp, os);
  ic_buffer *buf = ic_kscratch(c, (size_t)(nx ? nx : 1) * sizeof(double) +
                                      (size_t)(total + 3) * sizeof(lin));
  if (!buf) return c->err->code;
  double *acc = buf->data;
  lin *lp = (lin *)(acc + (nx ? nx : 1));
  lin *t[3];
  const bool align_flag = a->align_mode == 0 && !a->align_corners;
  for (int i = 0; i < 3 - gm.nd; i++) { /* a missing leading dim: index 0, weight 1 */
    t[i] = lp;
    *lp++ = (lin){0, 0, 1.0f, 0.0f};
  }
  bool same = true; /* the forward copies X when no spatial size changes */
  for (int i = 0; i < gm.nd; i++) same = same && gm.in[i] == gm.out[i];
  if (a->method == IC_INTERP_BICUBIC && !same) {
    for (int64_t k = 0; k < nx; k++) acc[k] = 0;
    bicubic_grad(g, acc, &gm, is, os, a->align_corners);
    goto store;
  }
  for (int i = 0; i < gm.nd; i++) {
    lin *ax = t[3 - gm.nd + i] = lp;
    for (int64_t k = 0; k < gm.out[i]; k++) {
      if (a->method == IC_INTERP_NEAREST || same) {
        /* nearest, or the copy: one source, weight 1 */
        int64_t src = same ? k : ic_interp_nearest(gm.ratio[i], gm.in[i], k, a->align_corners);
        ax[k] = (lin){src, src, 1.0f, 0.0f};
      } else {
        ic_interp_lin(gm.ratio[i], gm.in[i], k, align_flag, &ax[k].lo, &ax[k].hi, &ax[k].w0,
                      &ax[k].w1);
      }
    }
    lp += gm.out[i];
  }
  for (int64_t k = 0; k < nx; k++) acc[k] = 0;
  for (int64_t n = 0; n < gm.n; n++) {
    for (int64_t ch = 0; ch < gm.c; ch++) {
      for (int64_t j = 0; j < osp[0]; j++) {
        for (int64_t k = 0; k < osp[1]; k++) {
          for (int64_t l = 0; l < osp[2]; l++) {
            const int64_t oi = n * os[0] + ch * os[1] + j * os[2] + k * os[3] + l * os[4];
            const double gv = g->dtype == IC_FP32 ? (double)((const float *)g->data)[oi]
                                                  : ((const double *)g->data)[oi];
            const lin *w[3] = {&t[0][j], &t[1][k], &t[2][l]};
            for (int b = 0; b < 8; b++) { /* the 2^3 corners; nearest uses one */
              double wt = 1;
              int64_t ii = n * is[0] + ch * is[1];
              for (int ax = 0; ax < 3; ax++) {
                const bool hi = (b >> (2 - ax)) & 1;
                wt *= hi ? (double)w[ax]->w1 : (double)w[ax]->w0;
                ii += (hi ? w[ax]->hi : w[ax]->lo) * is[2 + ax];
              }
              if (wt != 0) acc[ii] += gv * wt;
            }
          }
        }
      }
    }
  }
store:
  for (int64_t k = 0; k < nx; k++) {
    if (dx->dtype == IC_FP32) ((float *)dx->data)[k] = (float)acc[k];
    else ((double *)dx->data)[k] = acc[k];
  }
  ic_buffer_release(buf);
  return IC_OK;
}
