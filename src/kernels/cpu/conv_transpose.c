/* conv2d_transpose and depthwise_conv2d_transpose, as paddle/phi/infermeta/binary.cc
 * ConvTransposeInferMeta and paddle/phi/kernels/impl/conv_transpose_kernel_impl.h define them:
 *
 *   Output[n, g*og + o, y*sh - pt + ky*dh, x*sw - pl + kx*dw] +=
 *       Input[n, g*cg + i, y, x] * Filter[g*cg + i, o, ky, kx]
 *
 * Input [N, C, H, W] (or NHWC), Filter [C, C_out / groups, KH, KW] whatever the data_format,
 * Output [N, C_out, OH, OW] with C_out = Filter.dims[1] * groups. padding_algorithm SAME
 * pads as conv2d does for the input size (the total max((ceil(H / s) - 1) * s + KH - H, 0),
 * the extra one at the end) and resets the dilations to 1; VALID pads nothing. Then
 *   OH = (H - 1) * sh - pt - pb + dh * (KH - 1) + 1
 * plus output_padding[0] when given, or exactly output_size[0] when given, which must lie in
 * [OH, OH + sh) (likewise for W). Bias (only oneDNN's kernel reads it in Paddle) is added
 * per output channel when present.
 *
 * The kernel does what Paddle's does: per image and group, one GEMM col = Filter_g^T *
 * Input_g ([og * KH * KW] x [H * W]) and a col2im that adds each column entry into the
 * output pixel it lands on. NHWC goes through NCHW copies. */
#include <string.h>

#include "kernels/cpu/conv_transpose.h"
#include "kernels/cpu/gemm.h"

const ic_slotdef ic_convt_inputs[3] = {
    {"Input", 0},
    {"Filter", 0},
    {"Bias", IC_SLOT_OPTIONAL},
};
const ic_slotdef ic_convt_outputs[1] = {{"Output", 0}};

static void read_pair(ic_attr_reader *r, const char *name, int64_t out[2], int64_t dflt,
                      int64_t min, bool *present) {
  const int64_t *v;
  size_t n;
  out[0] = out[1] = dflt;
  if (present) *present = false;
  if (!ic_ar_ints(r, name, false, &v, &n) || n == 0) return;
  if (n != 2) {
    ic_ar_fail(r, name, "has %zu values, expected 2 ([h, w])", n);
    return;
  }
  for (int i = 0; i < 2; i++) {
    if (v[i] < min) {
      ic_ar_fail(r, name, "holds %lld, expected values >= %lld", (long long)v[i],
                 (long long)min);
      return;
    }
    out[i] = v[i];
  }
  if (present) *present = true;
}

ic_status ic_convt_parse(ic_attr_reader *r, void *attrs) {
  ic_convt_attrs *a = attrs;
  read_pair(r, "strides", a->strides, 1, 1, NULL);
  read_pair(r, "dilations", a->dilations, 1, 1, NULL);
  read_pair(r, "output_padding", a->output_padding, 0, 0, &a->has_output_padding);
  read_pair(r, "output_size", a->output_size, -1, 1, &a->has_output_size);
  ic_read_paddings(r, a->paddings);
  a->pad_algo = ic_read_pad_algo(r);
  a->nhwc = ic_read_nhwc(r);
  a->groups = ic_ar_int(r, "groups", 1);
  if (!r->st && a->groups < 1) {
    ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  }
  return r->st;
}

typedef ic_convt_geom geom;

ic_status ic_convt_geometry(ic_kctx *c, geom *g) {
  const ic_convt_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0), *f = ic_in(c, IC_CONVT_FILTER, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IC_CONVT_INPUT, 0, IC_DT_FLOAT))) return st;
  if (f->dtype != x->dtype) {
    return ic_kfail_in(c, IC_CONVT_FILTER, 0, "expected Input's dtype %s",
                       ic_dtype_name(x->dtype));
  }
  if (x->ndim != 4) {
    return ic_kfail_in(c, IC_CONVT_INPUT, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  }
  if (f->ndim != 4) {
    return ic_kfail_in(c, IC_CONVT_FILTER, 0, "expected rank 4 [C_in, C_out / groups, KH, KW]");
  }
  g->n = x->dims[0];
  g->c = a->nhwc ? x->dims[3] : x->dims[1];
  g->h = a->nhwc ? x->dims[1] : x->dims[2];
  g->w = a->nhwc ? x->dims[2] : x->dims[3];
  g->g = a->groups;
  if (f->dims[0] != g->c) {
    return ic_kfail_in(c, IC_CONVT_INPUT, 0,
                       "has %lld channels (data_format %s), but Filter '%s' is [%lld, %lld, "
                       "%lld, %lld]: expected Filter.dims[0] = channels",
                       (long long)g->c, a->nhwc ? "NHWC" : "NCHW", ic_in_name(c, 1, 0),
                       (long long)f->dims[0], (long long)f->dims[1], (long long)f->dims[2],
                       (long long)f->dims[3]);
  }
  if (g->c % g->g != 0) {
    return ic_kfail_in(c, IC_CONVT_INPUT, 0,
                       "has %lld channels, expected a multiple of groups %lld",
                       (long long)g->c, (long long)g->g);
  }
  g->og = f->dims[1];
  g->oc = g->og * g->g;
  g->kh = f->dims[2];
  g->kw = f->dims[3];
  if (g->kh < 1 || g->kw < 1 || g->og < 1) {
    return ic_kfail_in(c, IC_CONVT_FILTER, 0, "expected dims >= 1");
  }
  g->sh = a->strides[0];
  g->sw = a->strides[1];
  g->dh = a->dilations[0];
  g->dw = a->dilations[1];
  int64_t p[4];
  if (ic_apply_pad_algo(a->pad_algo, a->paddings, g->h, g->w, g->sh, g->sw, g->kh, g->kw, p)) {
    g->dh = g->dw = 1;
  }
  g->pt = p[0], g->pb = p[1], g->pl = p[2], g->pr = p[3];
  int64_t base[2] = {(g->h - 1) * g->sh - g->pt - g->pb + g->dh * (g->kh - 1) + 1,
                     (g->w - 1) * g->sw - g->pl - g->pr + g->dw * (g->kw - 1) + 1};
  int64_t s[2] = {g->sh, g->sw}, d[2] = {g->dh, g->dw}, o[2];
  for (int i = 0; i < 2; i++) {
    o[i] = base[i];
    if (a->has_output_size) {
      if (a->output_size[i] < base[i] || a->output_size[i] >= base[i] + s[i]) {
        return ic_kfail_in(c, IC_CONVT_INPUT, 0,
                           "gives an output %s of %lld to %lld, but attribute 'output_size' "
                           "asks for %lld",
                           i ? "width" : "height", (long long)base[i],
                           (long long)(base[i] + s[i] - 1), (long long)a->output_size[i]);
      }
      o[i] = a->output_size[i];
    } else if (a->has_output_padding) {
      int64_t lim = s[i] > d[i] ? s[i] : d[i];
      if (a->output_padding[i] >= lim) {
        return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                        "attribute 'output_padding' holds %lld, expected less than max(stride, "
                        "dilation) = %lld",
                        (long long)a->output_padding[i], (long long)lim);
      }
      o[i] += a->output_padding[i];
    }
  }
  g->oh = o[0];
  g->ow = o[1];
  if (g->oh < 1 || g->ow < 1) {
    return ic_kfail_in(c, IC_CONVT_INPUT, 0,
                       "gives an output of %lld x %lld with paddings [%lld, %lld, %lld, %lld]; "
                       "expected sizes >= 1",
                       (long long)g->oh, (long long)g->ow, (long long)g->pt, (long long)g->pb,
                       (long long)g->pl, (long long)g->pr);
  }
  const ic_tensor *b = ic_in(c, IC_CONVT_BIAS, 0);
  if (b && (b->dtype != x->dtype || ic_numel(b->ndim, b->dims) != g->oc)) {
    return ic_kfail_in(c, IC_CONVT_BIAS, 0, "expected %s with %lld elements (one per output "
                       "channel)", ic_dtype_name(x->dtype), (long long)g->oc);
  }
  return IC_OK;
}

ic_status ic_convt_infer(ic_kctx *c) {
  const ic_convt_attrs *a = c->attrs;
  geom g;
  ic_status st = ic_convt_geometry(c, &g);
  if (st) return st;
  int64_t d[4] = {g.n, g.oc, g.oh, g.ow};
  if (a->nhwc) {
    d[1] = g.oh;
    d[2] = g.ow;
    d[3] = g.oc;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 4, d);
  return IC_OK;
}

#define DEFINE_CONVT(NAME, T)                                                               \
  static void NAME##_nchw(const T *x, T *y, int64_t n, int64_t ch, int64_t hw, bool back) { \
    for (int64_t b = 0; b < n; b++)                                                         \
      for (int64_t k = 0; k < ch; k++)                                                      \
        for (int64_t p = 0; p < hw; p++) {                                                  \
          size_t nchw = (size_t)((b * ch + k) * hw + p), nhwc = (size_t)((b * hw + p) * ch + k); \
          if (back) y[nhwc] = x[nchw];                                                      \
          else y[nchw] = x[nhwc];                                                           \
        }                                                                                   \
  }                                                                                         \
  static void NAME##_col2im(const T *col, T *out, const geom *g) {                          \
    const int64_t hw = g->h * g->w;                                                         \
    for (int64_t o = 0; o < g->og; o++) {                                                   \
      T *op = out + (size_t)(o * g->oh * g->ow);                                            \
      for (int64_t ky = 0; ky < g->kh; ky++)                                                \
        for (int64_t kx = 0; kx < g->kw; kx++) {                                            \
          const T *row = col + (size_t)(((o * g->kh + ky) * g->kw + kx) * hw);              \
          for (int64_t iy = 0; iy < g->h; iy++) {                                           \
            const int64_t oy = iy * g->sh - g->pt + ky * g->dh;                             \
            if (oy < 0 || oy >= g->oh) continue;                                            \
            for (int64_t ix = 0; ix < g->w; ix++) {                                         \
              const int64_t ox = ix * g->sw - g->pl + kx * g->dw;                           \
              if (ox >= 0 && ox < g->ow) op[oy * g->ow + ox] += row[iy * g->w + ix];        \
            }                                                                               \
          }                                                                                 \
        }                                                                                   \
    }                                                                                       \
  }
DEFINE_CONVT(f32, float)
DEFINE_CONVT(f64, double)

ic_status ic_convt_cpu(ic_kctx *c) {
  const ic_convt_attrs *a = c->attrs;
  geom g;
  ic_status st = ic_convt_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_CONVT_INPUT, 0), *f = ic_in(c, IC_CONVT_FILTER, 0);
  const ic_tensor *bt = ic_in(c, IC_CONVT_BIAS, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t cg = g.c / g.g, hw = g.h * g.w, ohw = g.oh * g.ow;
  const int64_t m = g.og * g.kh * g.kw;
  const size_t n_out = (size_t)(g.n * g.oc * ohw);
  if (n_out == 0) return IC_OK;
  ic_gemm gm = {.dtype = x->dtype, .trans_a = true, .m = m, .n = hw, .k = cg,
                .lda = m, .ldb = hw, .ldc = hw, .alpha = 1.0, .beta = 0.0};
  if ((st = ic_gemm_check(c, &gm))) return st;
  const size_t n_col = (size_t)(m * hw);
  const size_t n_in = a->nhwc ? (size_t)(g.n * g.c * hw) : 0;
  const size_t n_tmp = a->nhwc ? n_out : 0;
  ic_buffer *sb = ic_kscratch(c, (n_col + n_in + n_tmp) * es + es);
  if (!sb) return c->err->code;
  char *col = sb->data, *xin = col + n_col * es, *yout = xin + n_in * es;
  if (a->nhwc) {
    if (f64) f64_nchw(x->data, (double *)xin, g.n, g.c, hw, false);
    else f32_nchw(x->data, (float *)xin, g.n, g.c, hw, false);
  } else {
    xin = x->data;
    yout = out->data;
  }
  memset(yout, 0, n_out * es);
  ic_kernel_threads(c);
  for (int64_t n = 0; n < g.n; n++) {
    for (int64_t gi = 0; gi < g.g; gi++) {
      const char *xs = xin + (size_t)((n * g.c + gi * cg) * hw) * es;
      const char *fs = (const char *)f->data + (size_t)(gi * cg * m) * es;
      char *ys = yout + (size_t)((n * g.oc + gi * g.og) * ohw) * es;
      ic_gemm_run(c, &gm, fs, xs, col);
      if (f64) f64_col2im((const double *)col, (double *)ys, &g);
      else f32_col2im((const float *)col, (float *)ys, &g);
    }
  }
  if (bt) {
    for (int64_t n = 0; n < g.n; n++)
      for (int64_t o = 0; o < g.oc; o++) {
        size_t base = (size_t)((n * g.oc + o) * ohw);
        if (f64) {
          double b = ((const double *)bt->data)[o], *p = (double *)yout + base;
          for (int64_t q = 0; q < ohw; q++) p[q] += b;
        } else {
          float b = ((const float *)bt->data)[o], *p = (float *)yout + base;
          for (int64_t q = 0; q < ohw; q++) p[q] += b;
        }
      }
  }
  if (a->nhwc) {
    if (f64) f64_nchw((const double *)yout, out->data, g.n, g.oc, ohw, true);
    else f32_nchw((const float *)yout, out->data, g.n, g.oc, ohw, true);
  }
  ic_buffer_release(sb);
  return IC_OK;
}
