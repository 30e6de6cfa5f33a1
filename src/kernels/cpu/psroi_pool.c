/* psroi_pool: position-sensitive average pooling of regions of interest (R-FCN;
 * paddle/phi/kernels/cpu/psroi_pool_kernel.cc, PsroiPoolInferMeta).
 *
 * X is [N, output_channels * pooled_height * pooled_width, H, W], ROIs [R, 4] boxes (x0, y0,
 * x1, y1), Out [R, output_channels, pooled_height, pooled_width]; output_channels > 1, as
 * in Paddle. Regions are split into
 * images as roi_align does (RoisNum, else ROIs' LoD, else one image). The box corners are
 * rounded half away from zero first and then scaled by spatial_scale (ends as round + 1); the
 * region is at least 0.1 wide and high. Bin (c, ph, pw) averages input channel
 * (c * pooled_height + ph) * pooled_width + pw over rows [floor(start + ph * bh),
 * ceil(start + (ph + 1) * bh)) clamped to the map (likewise columns); an empty bin gives 0.
 * Computed in X's precision, in Paddle's order. */
#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/roi_align.h"

typedef struct psroi_attrs {
  ic_roi_align_attrs ra; /* ph, pw, scale as roi_align; sampling and aligned unused */
  int64_t oc;
} psroi_attrs;

enum { IN_X, IN_ROIS, IN_NUM };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  psroi_attrs *a = attrs;
  a->ra.ph = ic_ar_int(r, "pooled_height", 1);
  a->ra.pw = ic_ar_int(r, "pooled_width", 1);
  a->ra.scale = (float)ic_ar_float(r, "spatial_scale", 1.0);
  a->oc = ic_ar_int(r, "output_channels", 1);
  if (r->st) return r->st;
  if (a->ra.ph <= 0 || a->ra.ph > INT32_MAX) {
    return ic_ar_fail(r, "pooled_height", "is %lld, expected > 0", (long long)a->ra.ph);
  }
  if (a->ra.pw <= 0 || a->ra.pw > INT32_MAX) {
    return ic_ar_fail(r, "pooled_width", "is %lld, expected > 0", (long long)a->ra.pw);
  }
  if (a->oc <= 1 || a->oc > INT32_MAX) { /* Paddle's PsroiPoolInferMeta refuses 1 too */
    return ic_ar_fail(r, "output_channels", "is %lld, expected > 1", (long long)a->oc);
  }
  if (!(a->ra.scale > 0)) {
    return ic_ar_fail(r, "spatial_scale", "is %g, expected > 0", a->ra.scale);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const psroi_attrs *a = c->attrs;
  ic_status st = ic_roi_align_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0);
  if (x->dims[1] != a->oc * a->ra.ph * a->ra.pw) {
    return ic_kfail_in(c, IN_X, 0,
                       "has %lld channels, expected output_channels x pooled_height x "
                       "pooled_width = %lld x %lld x %lld",
                       (long long)x->dims[1], (long long)a->oc, (long long)a->ra.ph,
                       (long long)a->ra.pw);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4,
                     (int64_t[]){rois->dims[0], a->oc, a->ra.ph, a->ra.pw});
  return IC_OK;
}

static inline int64_t clampi(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }

#define DEFINE_ROI(name, T, ROUND, FLOOR, CEIL)                                                \
  static void name(const psroi_attrs *a, const T *box, const T *img, int64_t H, int64_t W,   \
                   T *out) {                                                                 \
    const T sc = (T)(float)a->ra.scale;                                                       \
    const T x0 = (T)ROUND(box[0]) * sc, y0 = (T)ROUND(box[1]) * sc;                           \
    const T x1 = (T)((double)ROUND(box[2]) + 1.) * sc, y1 = (T)((double)ROUND(box[3]) + 1.) * sc; \
    const T rh = y1 - y0 > (T)0.1 ? y1 - y0 : (T)0.1, rw = x1 - x0 > (T)0.1 ? x1 - x0 : (T)0.1; \
    const int64_t ph = a->ra.ph, pw = a->ra.pw;                                               \
    const T bh = rh / (T)ph, bw = rw / (T)pw;                                                 \
    for (int64_t oc = 0; oc < a->oc; oc++) {                                                  \
      for (int64_t py = 0; py < ph; py++) {                                                   \
        const int64_t h0 = clampi((int64_t)FLOOR((T)py * bh + y0), H);                        \
        const int64_t h1 = clampi((int64_t)CEIL((T)(py + 1) * bh + y0), H);                   \
        for (int64_t px = 0; px < pw; px++, out++) {                                          \
          const int64_t w0 = clampi((int64_t)FLOOR((T)px * bw + x0), W);                      \
          const int64_t w1 = clampi((int64_t)CEIL((T)(px + 1) * bw + x0), W);                 \
          const T *d = img + ((oc * ph + py) * pw + px) * H * W;                              \
          T sum = 0;                                                                          \
          for (int64_t h = h0; h < h1; h++) {                                                 \
            for (int64_t w = w0; w < w1; w++) sum += d[h * W + w];                            \
          }                                                                                   \
          const T area = (T)((h1 - h0) * (w1 - w0));                                          \
          *out = h1 <= h0 || w1 <= w0 ? (T)0 : sum / area;                                    \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }
DEFINE_ROI(roi_f32, float, roundf, floorf, ceilf)
DEFINE_ROI(roi_f64, double, round, floor, ceil)

static ic_status run(ic_kctx *c) {
  const psroi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t C = x->dims[1], H = x->dims[2], W = x->dims[3], R = rois->dims[0];
  if (R == 0) return IC_OK;
  int64_t *batch = malloc((size_t)R * sizeof *batch);
  if (!batch) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  ic_status st = ic_roi_align_batch(c, batch);
  const int64_t plane = C * H * W, oplane = a->oc * a->ra.ph * a->ra.pw;
  for (int64_t r = 0; r < R && !st; r++) {
    if (x->dtype == IC_FP32) {
      roi_f32(a, (const float *)rois->data + r * 4, (const float *)x->data + batch[r] * plane, H,
              W, (float *)out->data + r * oplane);
    } else {
      roi_f64(a, (const double *)rois->data + r * 4, (const double *)x->data + batch[r] * plane,
              H, W, (double *)out->data + r * oplane);
    }
  }
  free(batch);
  return st;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"ROIs", 0}, {"RoisNum", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_psroi_pool = {
    .name = "psroi_pool",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(psroi_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
