/* roi_pool: max over each bin of each region of interest (Fast R-CNN's RoIPool;
 * paddle/phi/kernels/cpu/roi_pool_kernel.cc, RoiPoolInferMeta).
 *
 * X is [N, C, H, W], ROIs [R, 4] boxes (x0, y0, x1, y1); Out [R, C, pooled_height,
 * pooled_width] and Argmax (int64, same dims) the flat h * W + w of each bin's maximum in its
 * channel plane, -1 for an empty bin. Regions are split into images as roi_align does
 * (RoisNum, else ROIs' LoD, else one image). A box's corners are scaled by spatial_scale (in
 * X's precision) and rounded half away from zero; its size is (end - start + 1), at least 1.
 * Bin (ph, pw) covers rows [floor(ph * bh), ceil((ph + 1) * bh)) + start, with bh = height /
 * pooled_height computed in float as Paddle does, clamped to the map. An empty bin gives 0;
 * ties keep the first maximum in row-major order. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/roi_align.h"

enum { IN_X, IN_ROIS, IN_NUM };

static ic_status infer(ic_kctx *c) {
  const ic_roi_align_attrs *a = c->attrs;
  ic_status st = ic_roi_align_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0);
  const int64_t d[4] = {rois->dims[0], x->dims[1], a->ph, a->pw};
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, d);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT64, 4, d);
  return IC_OK;
}

static inline int64_t clampi(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }

#define DEFINE_ROI(name, T, ROUND, LOWEST)                                                    \
  static void name(const ic_roi_align_attrs *a, const T *box, const T *img, int64_t C,      \
                   int64_t H, int64_t W, T *out, int64_t *arg) {                            \
    const T sc = (T)(float)a->scale;                                                         \
    const int64_t sw = (int64_t)ROUND(box[0] * sc), sh = (int64_t)ROUND(box[1] * sc);        \
    const int64_t ew = (int64_t)ROUND(box[2] * sc), eh = (int64_t)ROUND(box[3] * sc);        \
    const int64_t bh = eh - sh + 1 > 1 ? eh - sh + 1 : 1, bw = ew - sw + 1 > 1 ? ew - sw + 1 : 1; \
    const float szh = (float)bh / (float)a->ph, szw = (float)bw / (float)a->pw;              \
    for (int64_t ch = 0; ch < C; ch++) {                                                      \
      const T *d = img + ch * H * W;                                                          \
      for (int64_t py = 0; py < a->ph; py++) {                                                \
        const int64_t h0 = clampi((int64_t)floorf((float)py * szh) + sh, H);                  \
        const int64_t h1 = clampi((int64_t)ceilf((float)(py + 1) * szh) + sh, H);             \
        for (int64_t px = 0; px < a->pw; px++, out++, arg++) {                                \
          const int64_t w0 = clampi((int64_t)floorf((float)px * szw) + sw, W);                \
          const int64_t w1 = clampi((int64_t)ceilf((float)(px + 1) * szw) + sw, W);           \
          T best = h1 <= h0 || w1 <= w0 ? (T)0 : LOWEST;                                      \
          int64_t at = -1;                                                                    \
          for (int64_t h = h0; h < h1; h++) {                                                 \
            for (int64_t w = w0; w < w1; w++) {                                               \
              if (d[h * W + w] > best) best = d[h * W + w], at = h * W + w;                   \
            }                                                                                 \
          }                                                                                   \
          *out = best;                                                                        \
          *arg = at;                                                                          \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }
DEFINE_ROI(roi_f32, float, roundf, -FLT_MAX)
DEFINE_ROI(roi_f64, double, round, -DBL_MAX)

static ic_status run(ic_kctx *c) {
  const ic_roi_align_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0);
  ic_tensor *out = ic_out(c, 0, 0), *arg = ic_out(c, 1, 0);
  const int64_t C = x->dims[1], H = x->dims[2], W = x->dims[3], R = rois->dims[0];
  if (R == 0) return IC_OK;
  int64_t *batch = malloc((size_t)R * sizeof *batch);
  if (!batch) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  ic_status st = ic_roi_align_batch(c, batch);
  const int64_t plane = C * H * W, oplane = C * a->ph * a->pw;
  for (int64_t r = 0; r < R && !st; r++) {
    int64_t *am = (int64_t *)arg->data + r * oplane;
    if (x->dtype == IC_FP32) {
      roi_f32(a, (const float *)rois->data + r * 4, (const float *)x->data + batch[r] * plane, C,
              H, W, (float *)out->data + r * oplane, am);
    } else {
      roi_f64(a, (const double *)rois->data + r * 4, (const double *)x->data + batch[r] * plane,
              C, H, W, (double *)out->data + r * oplane, am);
    }
  }
  free(batch);
  return st;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_roi_align_attrs *a = attrs;
  a->ph = ic_ar_int(r, "pooled_height", 1);
  a->pw = ic_ar_int(r, "pooled_width", 1);
  a->scale = (float)ic_ar_float(r, "spatial_scale", 1.0);
  if (r->st) return r->st;
  if (a->ph <= 0 || a->ph > INT32_MAX) {
    return ic_ar_fail(r, "pooled_height", "is %lld, expected > 0", (long long)a->ph);
  }
  if (a->pw <= 0 || a->pw > INT32_MAX) {
    return ic_ar_fail(r, "pooled_width", "is %lld, expected > 0", (long long)a->pw);
  }
  if (!(a->scale > 0)) return ic_ar_fail(r, "spatial_scale", "is %g, expected > 0", a->scale);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"ROIs", 0}, {"RoisNum", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Argmax", 0}};

const ic_opdef ic_op_roi_pool = {
    .name = "roi_pool",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ic_roi_align_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
