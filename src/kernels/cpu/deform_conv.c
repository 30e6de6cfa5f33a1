/* deformable_conv and deformable_conv_v1, as paddle/phi/infermeta/multiary.cc
 * DeformableConvInferMeta and paddle/phi/kernels/impl/deformable_conv_kernel_impl.h with
 * funcs/deformable_conv_functor.cc define them:
 *
 *   Output[n, g*og + o, y, x] = sum over i < C / groups, (ky, kx) of
 *       Filter[g*og + o, i, ky, kx] * Mask[n, m, y, x] * X~(c, hy, wx)
 *   with c = g*cg + i, d its deformable group (C / deformable_groups channels each),
 *   k = ky * KW + kx, m = d * KH * KW + k (Mask is 1 for deformable_conv_v1),
 *   hy = y * sh - ph + ky * dh + Offset[n, d * 2 * KH * KW + 2 * k, y, x],
 *   wx = x * sw - pw + kx * dw + Offset[n, d * 2 * KH * KW + 2 * k + 1, y, x],
 *   X~ bilinear in Input[n, c]: 0 when hy <= -1, wx <= -1, hy >= H or wx >= W; otherwise
 *   the four neighbours floor / floor + 1, those outside the image counting 0, weighted
 *   (1 - lh)(1 - lw), (1 - lh) lw, lh (1 - lw), lh lw with lh, lw the fractional parts.
 *
 * Input [N, C, H, W], Filter [C_out, C / groups, KH, KW], Offset [N, 2 * dg * KH * KW, OH,
 * OW], Mask [N, dg * KH * KW, OH, OW], OH = (H + 2 ph - (dh (KH - 1) + 1)) / sh + 1 (paddings
 * are two values, symmetric). Computed as Paddle does: a deformable im2col per image, then a
 * GEMM per group. im2col_step only batches Paddle's work and does not change the result. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/deform_conv.h"
#include "kernels/cpu/gemm.h"

static void pair(ic_attr_reader *r, const char *name, int64_t out[2], int64_t dflt,
                 int64_t min) {
  const int64_t *v;
  size_t n;
  out[0] = out[1] = dflt;
  if (!ic_ar_ints(r, name, false, &v, &n)) return;
  if (n != 2) {
    ic_ar_fail(r, name, "has %zu values, expected 2 ([h, w])", n);
    return;
  }
  for (int i = 0; i < 2; i++) {
    if (v[i] < min) {
      ic_ar_fail(r, name, "holds %lld, expected values >= %lld", (long long)v[i], (long long)min);
      return;
    }
    out[i] = v[i];
  }
}

ic_status ic_dcn_parse(ic_attr_reader *r, void *attrs) {
  ic_dcn_attrs *a = attrs;
  pair(r, "strides", a->strides, 1, 1);
  pair(r, "paddings", a->paddings, 0, 0);
  pair(r, "dilations", a->dilations, 1, 1);
  a->groups = ic_ar_int(r, "groups", 1);
  a->dgroups = ic_ar_int(r, "deformable_groups", 1);
  a->im2col_step = ic_ar_int(r, "im2col_step", 64);
  if (r->st) return r->st;
  if (a->groups < 1) return ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  if (a->dgroups < 1) {
    return ic_ar_fail(r, "deformable_groups", "is %lld, expected >= 1", (long long)a->dgroups);
  }
  return IC_OK;
}

typedef ic_dcn_geom geom;

static ic_status expect_dims(ic_kctx *c, size_t s, const ic_tensor *t, const int64_t d[4],
                             const char *what) {
  if (t->dtype != ic_in(c, IC_DCN_INPUT, 0)->dtype || !ic_dims_equal(t->ndim, t->dims, 4, d)) {
    char want[96];
    return ic_kfail_in(c, s, 0, "expected %s%s (%s)", ic_dtype_name(ic_in(c, 0, 0)->dtype),
                       ic_dims_str(4, d, want, sizeof want), what);
  }
  return IC_OK;
}

ic_status ic_dcn_geometry(ic_kctx *c, size_t mask_slot, geom *g) {
  const ic_dcn_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_DCN_INPUT, 0), *f = ic_in(c, IC_DCN_FILTER, 0);
  ic_status st = ic_kcheck_dtype(c, IC_DCN_INPUT, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, IC_DCN_INPUT, 0, "expected rank 4 [N, C, H, W]");
  if (f->ndim != 4 || f->dtype != x->dtype) {
    return ic_kfail_in(c, IC_DCN_FILTER, 0, "expected %s of rank 4 [C_out, C / groups, KH, KW]",
                       ic_dtype_name(x->dtype));
  }
  g->n = x->dims[0], g->c = x->dims[1], g->h = x->dims[2], g->w = x->dims[3];
  g->oc = f->dims[0], g->kh = f->dims[2], g->kw = f->dims[3];
  if (f->dims[1] * a->groups != g->c || g->oc % a->groups) {
    return ic_kfail_in(c, IC_DCN_INPUT, 0,
                       "has %lld channels, but Filter is [%lld, %lld, %lld, %lld] with groups "
                       "%lld: expected Filter.dims[1] * groups = channels and C_out a multiple "
                       "of groups",
                       (long long)g->c, (long long)f->dims[0], (long long)f->dims[1],
                       (long long)g->kh, (long long)g->kw, (long long)a->groups);
  }
  if (g->c % a->dgroups) {
    return ic_kfail_in(c, IC_DCN_INPUT, 0,
                       "has %lld channels, expected a multiple of deformable_groups %lld",
                       (long long)g->c, (long long)a->dgroups);
  }
  const int64_t eh = a->dilations[0] * (g->kh - 1) + 1, ew = a->dilations[1] * (g->kw - 1) + 1;
  g->oh = (g->h + 2 * a->paddings[0] - eh) / a->strides[0] + 1;
  g->ow = (g->w + 2 * a->paddings[1] - ew) / a->strides[1] + 1;
  if (g->h + 2 * a->paddings[0] < eh || g->w + 2 * a->paddings[1] < ew) {
    return ic_kfail_in(c, IC_DCN_INPUT, 0,
                       "is smaller (padded) than the dilated filter %lld x %lld", (long long)eh,
                       (long long)ew);
  }
  const int64_t kk = g->kh * g->kw;
  int64_t od[4] = {g->n, 2 * a->dgroups * kk, g->oh, g->ow};
  if ((st = expect_dims(c, IC_DCN_OFFSET, ic_in(c, IC_DCN_OFFSET, 0), od,
                        "[N, 2 * deformable_groups * KH * KW, OH, OW]"))) {
    return st;
  }
  const ic_tensor *m = mask_slot != IC_DCN_NO_MASK ? ic_in(c, mask_slot, 0) : NULL;
  if (m) {
    int64_t md[4] = {g->n, a->dgroups * kk, g->oh, g->ow};
    if ((st = expect_dims(c, mask_slot, m, md, "[N, deformable_groups * KH * KW, OH, OW]"))) {
      return st;
    }
  }
  return IC_OK;
}

static size_t mask_slot_of(const ic_kctx *c) {
  return c->def->n_inputs > IC_DCN_MASK ? (size_t)IC_DCN_MASK : IC_DCN_NO_MASK;
}

ic_status ic_dcn_infer(ic_kctx *c) {
  geom g;
  ic_status st = ic_dcn_geometry(c, mask_slot_of(c), &g);
  if (st) return st;
  int64_t d[4] = {g.n, g.oc, g.oh, g.ow};
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 4, d);
  return IC_OK;
}

#define DEFINE_DCN(T)                                                                        \
  static T bilinear_##T(const T *x, int64_t H, int64_t W, T h, T w) {                        \
    const int64_t hl = (int64_t)floor((double)h), wl = (int64_t)floor((double)w);            \
    const int64_t hh = hl + 1, wh = wl + 1;                                                  \
    const T lh = h - (T)hl, lw = w - (T)wl, uh = 1 - lh, uw = 1 - lw;                        \
    const T v1 = hl >= 0 && wl >= 0 ? x[hl * W + wl] : 0;                                    \
    const T v2 = hl >= 0 && wh <= W - 1 ? x[hl * W + wh] : 0;                                \
    const T v3 = hh <= H - 1 && wl >= 0 ? x[hh * W + wl] : 0;                                \
    const T v4 = hh <= H - 1 && wh <= W - 1 ? x[hh * W + wh] : 0;                            \
    return uh * uw * v1 + uh * lw * v2 + lh * uw * v3 + lh * lw * v4;                        \
  }                                                                                          \
  static void im2col_##T(const ic_dcn_attrs *a, const geom *g, const T *x, const T *off,     \
                         const T *mask, T *col) {                                            \
    const int64_t kk = g->kh * g->kw, ohw = g->oh * g->ow, cpd = g->c / a->dgroups;          \
    for (int64_t ch = 0; ch < g->c; ch++) {                                                  \
      const int64_t d = ch / cpd;                                                            \
      const T *xc = x + ch * g->h * g->w;                                                    \
      for (int64_t ky = 0; ky < g->kh; ky++)                                                 \
        for (int64_t kx = 0; kx < g->kw; kx++) {                                             \
          const int64_t k = ky * g->kw + kx;                                                 \
          const T *oy = off + (d * 2 * kk + 2 * k) * ohw, *ox = oy + ohw;                    \
          const T *mk = mask ? mask + (d * kk + k) * ohw : NULL;                             \
          T *row = col + (ch * kk + k) * ohw;                                                \
          for (int64_t y = 0; y < g->oh; y++)                                                \
            for (int64_t xx = 0; xx < g->ow; xx++) {                                         \
              const int64_t p = y * g->ow + xx;                                              \
              const T h = (T)(y * a->strides[0] - a->paddings[0] + ky * a->dilations[0]) + oy[p]; \
              const T w = (T)(xx * a->strides[1] - a->paddings[1] + kx * a->dilations[1]) + ox[p]; \
              T v = 0;                                                                       \
              if (h > -1 && w > -1 && h < (T)g->h && w < (T)g->w) {                          \
                v = bilinear_##T(xc, g->h, g->w, h, w);                                      \
              }                                                                              \
              row[p] = mk ? v * mk[p] : v;                                                   \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
  }
DEFINE_DCN(float)
DEFINE_DCN(double)

ic_status ic_dcn_cpu(ic_kctx *c) {
  const ic_dcn_attrs *a = c->attrs;
  geom g;
  ic_status st = ic_dcn_geometry(c, mask_slot_of(c), &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_DCN_INPUT, 0), *f = ic_in(c, IC_DCN_FILTER, 0);
  const ic_tensor *off = ic_in(c, IC_DCN_OFFSET, 0);
  const ic_tensor *m = c->def->n_inputs > IC_DCN_MASK ? ic_in(c, IC_DCN_MASK, 0) : NULL;
  ic_tensor *out = ic_out(c, 0, 0);
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t kk = g.kh * g.kw, ohw = g.oh * g.ow, cg = g.c / a->groups, og = g.oc / a->groups;
  if (g.n * g.oc * ohw == 0) return IC_OK;
  ic_gemm gm = {.dtype = x->dtype, .m = og, .n = ohw, .k = cg * kk, .lda = cg * kk,
                .ldb = ohw, .ldc = ohw, .alpha = 1.0, .beta = 0.0};
  if ((st = ic_gemm_check(c, &gm))) return st;
  ic_buffer *sb = ic_kscratch(c, (size_t)(g.c * kk * ohw) * es + es);
  if (!sb) return c->err->code;
  ic_kernel_threads(c);
  for (int64_t n = 0; n < g.n; n++) {
    const size_t xo = (size_t)(n * g.c * g.h * g.w), oo = (size_t)(n * 2 * a->dgroups * kk * ohw);
    const size_t mo = (size_t)(n * a->dgroups * kk * ohw);
    if (f64) {
      im2col_double(a, &g, (const double *)x->data + xo, (const double *)off->data + oo,
                    m ? (const double *)m->data + mo : NULL, sb->data);
    } else {
      im2col_float(a, &g, (const float *)x->data + xo, (const float *)off->data + oo,
                   m ? (const float *)m->data + mo : NULL, sb->data);
    }
    for (int64_t gi = 0; gi < a->groups; gi++) {
      ic_gemm_run(c, &gm, (const char *)f->data + (size_t)(gi * og * cg * kk) * es,
                  (const char *)sb->data + (size_t)(gi * cg * kk * ohw) * es,
                  (char *)out->data + (size_t)((n * g.oc + gi * og) * ohw) * es);
    }
  }
  ic_buffer_release(sb);
  return IC_OK;
}
