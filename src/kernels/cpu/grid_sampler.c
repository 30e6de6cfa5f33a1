/* grid_sampler, as paddle/phi/kernels/cpu/grid_sample_kernel.cc computes it: X [N, C, H, W]
 * sampled at Grid [N, OH, OW, 2] (x, y in [-1, 1]) gives Output [N, C, OH, OW]; 3-D: X
 * [N, C, D, H, W], Grid [N, OD, OH, OW, 3] (x, y, z). All arithmetic in X's dtype.
 *
 * Each coordinate is unnormalized against its input size S (max = S - 1):
 *   align_corners:  (g + 1) * (max * 0.5)        otherwise: (g + 1) * (S * 0.5) - 0.5
 * then padding_mode moves it: "border" clips it to [0, max]; "reflection" folds it back into
 * the image (align_corners: about 0 and max, period 2 * max, 0 when max is 0; otherwise about
 * -0.5 and max + 0.5, then clipped to [0, max]); "zeros" leaves it.
 *   bilinear:  the corners floor(c) and floor(c) + 1 of every axis, weighted by the distance
 *              to the other corner; corners outside the image count 0 (summed in Paddle's
 *              order);
 *   nearest:   the coordinates are rounded (half away from zero) and the element read if
 *              inside the image, else 0 (Paddle 3.3.1 rounds first for 3-D too, checked by
 *              the oracle case grid_sampler_modes). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/cpu/grid_sampler.h"

typedef ic_gs_pad pad_mode;
typedef ic_gs_attrs gs_attrs;

enum { IN_X, IN_GRID };

ic_status ic_grid_sampler_parse(ic_attr_reader *r, void *attrs) {
  gs_attrs *a = attrs;
  const char *m = ic_ar_str(r, "mode", "bilinear");
  const char *p = ic_ar_str(r, "padding_mode", "zeros");
  a->align_corners = ic_ar_bool(r, "align_corners", true);
  if (r->st) return r->st;
  a->nearest = !strcmp(m, "nearest");
  if (!a->nearest && strcmp(m, "bilinear")) {
    return ic_ar_fail(r, "mode", "is \"%s\", expected bilinear or nearest", m);
  }
  if (!strcmp(p, "zeros")) a->pad = PAD_ZEROS;
  else if (!strcmp(p, "border")) a->pad = PAD_BORDER;
  else if (!strcmp(p, "reflection")) a->pad = PAD_REFLECTION;
  else return ic_ar_fail(r, "padding_mode", "is \"%s\", expected zeros, border or reflection", p);
  return IC_OK;
}

ic_status ic_grid_sampler_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_GRID, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4 && x->ndim != 5) {
    return ic_kfail_in(c, IN_X, 0, "expected rank 4 [N, C, H, W] or 5 [N, C, D, H, W]");
  }
  const int sp = x->ndim - 2;
  if (g->dtype != x->dtype || g->ndim != x->ndim || g->dims[0] != x->dims[0] ||
      g->dims[g->ndim - 1] != sp) {
    char want[64];
    snprintf(want, sizeof want, "%s[%lld, %s, %d]", ic_dtype_name(x->dtype),
             (long long)x->dims[0], sp == 2 ? "OH, OW" : "OD, OH, OW", sp);
    return ic_kfail_in(c, IN_GRID, 0, "expected %s (X '%s' is %dD)", want, ic_in_name(c, 0, 0),
                       sp);
  }
  int64_t d[5] = {x->dims[0], x->dims[1]};
  for (int i = 0; i < sp; i++) d[2 + i] = g->dims[1 + i];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  return IC_OK;
}

#define DEFINE_GS(T)                                                                          \
  static T unnorm_##T(T g, int64_t size, bool align) {                                        \
    const int64_t max = size - 1;                                                             \
    return align ? (g + (T)1) * (T)(max * 0.5) : (g + (T)1) * (T)((max + 1) * 0.5) - (T)0.5;  \
  }                                                                                           \
  static T clip_##T(T v, int64_t size, bool align, pad_mode pad) {                            \
    const int64_t max = size - 1;                                                             \
    if (pad == PAD_BORDER) return v < 0 ? (T)0 : v > (T)max ? (T)max : v;                     \
    if (pad != PAD_REFLECTION) return v;                                                      \
    if (align) {                                                                              \
      if (max == 0) return 0;                                                                 \
      const T dr = (T)(max * 2), a = (T)fabs((double)v);                                      \
      const T e = a - (T)floor((double)(a / dr)) * dr;                                        \
      return e < dr - e ? e : dr - e;                                                         \
    }                                                                                         \
    const T dr = (T)((max + 1) * 2), a = (T)fabs((double)(v + (T)0.5));                       \
    const T e = a - (T)floor((double)(a / dr)) * dr;                                          \
    T r = (e < dr - e ? e : dr - e) - (T)0.5;                                                 \
    return r < 0 ? (T)0 : r > (T)max ? (T)max : r;                                            \
  }                                                                                           \
  /* X[n, ch, (z,) y, x] or 0 outside the image; coordinates are whole numbers as T. */       \
  static T at_##T(const T *xs, const int64_t *sz, int sp, T z, T y, T x) {                    \
    if (x < 0 || x > (T)(sz[sp - 1] - 1) || y < 0 || y > (T)(sz[sp - 2] - 1)) return 0;       \
    if (sp == 3 && (z < 0 || z > (T)(sz[0] - 1))) return 0;                                   \
    int64_t k = (int64_t)y * sz[sp - 1] + (int64_t)x;                                         \
    if (sp == 3) k += (int64_t)z * sz[1] * sz[2];                                             \
    return xs[k];                                                                             \
  }                                                                                           \
  static void run_##T(const gs_attrs *a, const ic_tensor *xt, const ic_tensor *gt,            \
                      ic_tensor *ot) {                                                        \
    const int sp = xt->ndim - 2;                                                              \
    const int64_t N = xt->dims[0], C = xt->dims[1];                                           \
    const int64_t *sz = xt->dims + 2;                                                         \
    const int64_t S = ic_numel(sp, sz), P = ic_numel(sp, gt->dims + 1);                       \
    const T *xp = xt->data, *gp = gt->data;                                                   \
    T *op = ot->data;                                                                         \
    for (int64_t n = 0; n < N; n++)                                                           \
      for (int64_t p = 0; p < P; p++) {                                                       \
        const T *gv = gp + (n * P + p) * sp;                                                  \
        T cx = clip_##T(unnorm_##T(gv[0], sz[sp - 1], a->align_corners), sz[sp - 1],          \
                        a->align_corners, a->pad);                                            \
        T cy = clip_##T(unnorm_##T(gv[1], sz[sp - 2], a->align_corners), sz[sp - 2],          \
                        a->align_corners, a->pad);                                            \
        T cz = sp == 3 ? clip_##T(unnorm_##T(gv[2], sz[0], a->align_corners), sz[0],          \
                                  a->align_corners, a->pad)                                   \
                       : (T)0;                                                                \
        for (int64_t ch = 0; ch < C; ch++) {                                                  \
          const T *xs = xp + (n * C + ch) * S;                                                \
          T v;                                                                                \
          if (a->nearest) {                                                                   \
            v = at_##T(xs, sz, sp, (T)round((double)cz), (T)round((double)cy),                \
                       (T)round((double)cx));                                                 \
          } else {                                                                            \
            const T xw = (T)floor((double)cx), xe = xw + 1, yn = (T)floor((double)cy),        \
                    ys = yn + 1;                                                              \
            const T dw = cx - xw, de = xe - cx, dn = cy - yn, ds = ys - cy;                   \
            if (sp == 2) {                                                                    \
              v = at_##T(xs, sz, 2, 0, yn, xw) * de * ds +                                    \
                  at_##T(xs, sz, 2, 0, yn, xe) * dw * ds +                                    \
                  at_##T(xs, sz, 2, 0, ys, xw) * de * dn +                                    \
                  at_##T(xs, sz, 2, 0, ys, xe) * dw * dn;                                     \
            } else {                                                                          \
              const T zt = (T)floor((double)cz), zb = zt + 1, dt = cz - zt, db = zb - cz;     \
              v = at_##T(xs, sz, 3, zt, yn, xw) * de * ds * db +                              \
                  at_##T(xs, sz, 3, zt, yn, xe) * dw * ds * db +                              \
                  at_##T(xs, sz, 3, zt, ys, xw) * de * dn * db +                              \
                  at_##T(xs, sz, 3, zt, ys, xe) * dw * dn * db +                              \
                  at_##T(xs, sz, 3, zb, yn, xw) * de * ds * dt +                              \
                  at_##T(xs, sz, 3, zb, yn, xe) * dw * ds * dt +                              \
                  at_##T(xs, sz, 3, zb, ys, xw) * de * dn * dt +                              \
                  at_##T(xs, sz, 3, zb, ys, xe) * dw * dn * dt;                               \
            }                                                                                 \
          }                                                                                   \
          op[(n * C + ch) * P + p] = v;                                                       \
        }                                                                                     \
      }                                                                                       \
  }
DEFINE_GS(float)
DEFINE_GS(double)

static ic_status run(ic_kctx *c) {
  const gs_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_GRID, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (x->dtype == IC_FP64) run_double(a, x, g, o);
  else run_float(a, x, g, o);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Grid", 0}};
static const ic_slotdef outputs[] = {{"Output", 0}};

const ic_opdef ic_op_grid_sampler = {
    .name = "grid_sampler",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(gs_attrs), .parse = ic_grid_sampler_parse,
    .infer = ic_grid_sampler_infer, .cpu = run,
};
