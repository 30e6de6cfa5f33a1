/* prior_box: SSD anchor boxes for every cell of a feature map (paddle/phi/kernels/cpu/
 * prior_box_kernel.cc, PriorBoxInferMeta). Input is the feature map [N, C, H, W], Image the
 * network input [N, C, IH, IW]; only their dims are read. Boxes and Variances are
 * [H, W, num_priors, 4].
 *
 * The aspect ratios are expanded as Paddle's ExpandAspectRatios does: 1 first, then each
 * given ratio not already present (within 1e-6), followed by its reciprocal when `flip`.
 * For each cell, centre ((w + offset) * step_w, (h + offset) * step_h) (steps default to
 * IW / W and IH / H when either step attribute is 0), and for each min size s:
 *   - default order: one box per expanded ratio r (s * sqrt(r) by s / sqrt(r)), then, when
 *     max_sizes is given, the square of side sqrt(s * max);
 *   - min_max_aspect_ratios_order: the square s box, the sqrt(s * max) square, then the
 *     ratios other than 1 (Caffe's order).
 * Coordinates are divided by IW / IH and clamped to [0, 1] when `clip`. Every row of
 * Variances is the `variances` attribute. */
#include <math.h>

#include "kernels/cpu/detection.h"

#define MAX_AR 64

typedef struct pb_attrs {
  const double *min_sizes, *max_sizes, *variances;
  size_t n_min, n_max, n_var;
  double ar[MAX_AR];
  size_t n_ar;
  bool flip, clip, mm_order;
  double step_w, step_h, offset;
} pb_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pb_attrs *a = attrs;
  const double *ars = NULL;
  size_t n_ars = 0;
  ic_ar_floats(r, "min_sizes", true, &a->min_sizes, &a->n_min);
  ic_ar_floats(r, "max_sizes", false, &a->max_sizes, &a->n_max);
  ic_ar_floats(r, "aspect_ratios", false, &ars, &n_ars);
  if (!ic_ar_floats(r, "variances", false, &a->variances, &a->n_var)) {
    static const double dflt[4] = {0.1, 0.1, 0.2, 0.2};
    a->variances = dflt;
    a->n_var = 4;
  }
  a->flip = ic_ar_bool(r, "flip", true); /* Paddle's defaults, for a program without them */
  a->clip = ic_ar_bool(r, "clip", true);
  a->step_w = (float)ic_ar_float(r, "step_w", 0.0);
  a->step_h = (float)ic_ar_float(r, "step_h", 0.0);
  a->offset = (float)ic_ar_float(r, "offset", 0.5);
  a->mm_order = ic_ar_bool(r, "min_max_aspect_ratios_order", false);
  if (r->st) return r->st;
  if (a->n_min == 0) return ic_ar_fail(r, "min_sizes", "must not be empty");
  for (size_t i = 0; i < a->n_min; i++) {
    if (!(a->min_sizes[i] > 0)) {
      return ic_ar_fail(r, "min_sizes", "entry %zu is %g, expected > 0", i, a->min_sizes[i]);
    }
  }
  if (a->n_max && a->n_max != a->n_min) {
    return ic_ar_fail(r, "max_sizes", "has %zu entries, expected one per min size (%zu)",
                      a->n_max, a->n_min);
  }
  for (size_t i = 0; i < a->n_max; i++) {
    if (!(a->max_sizes[i] > a->min_sizes[i])) {
      return ic_ar_fail(r, "max_sizes", "entry %zu is %g, expected more than min size %g", i,
                        a->max_sizes[i], a->min_sizes[i]);
    }
  }
  if (a->n_var != 4) {
    return ic_ar_fail(r, "variances", "has %zu entries, expected 4", a->n_var);
  }
  for (size_t i = 0; i < 4; i++) {
    if (!(a->variances[i] > 0)) {
      return ic_ar_fail(r, "variances", "entry %zu is %g, expected > 0", i, a->variances[i]);
    }
  }
  a->ar[0] = 1.0;
  a->n_ar = 1;
  for (size_t i = 0; i < n_ars; i++) {
    float v = (float)ars[i];
    bool seen = false;
    for (size_t k = 0; k < a->n_ar; k++) seen |= fabs(v - a->ar[k]) < 1e-6;
    if (seen) continue;
    if (!(v > 0)) return ic_ar_fail(r, "aspect_ratios", "entry %zu is %g, expected > 0", i, v);
    if (a->n_ar + 2 > MAX_AR) {
      return ic_ar_fail(r, "aspect_ratios", "has more than %d ratios", MAX_AR / 2);
    }
    a->ar[a->n_ar++] = v;
    if (a->flip) a->ar[a->n_ar++] = (float)(1.0f / v);
  }
  return IC_OK;
}

enum { IN_INPUT, IN_IMAGE };
enum { OUT_BOXES, OUT_VARS };

static int64_t num_priors(const pb_attrs *a) { return (int64_t)(a->n_ar * a->n_min + a->n_max); }

static ic_status infer(ic_kctx *c) {
  const pb_attrs *a = c->attrs;
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *img = ic_in(c, IN_IMAGE, 0);
  ic_status st = ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT);
  if (st) return st;
  if (in->ndim != 4) return ic_kfail_in(c, IN_INPUT, 0, "expected rank 4 (NCHW)");
  if (img->ndim != 4) return ic_kfail_in(c, IN_IMAGE, 0, "expected rank 4 (NCHW)");
  int64_t d[4] = {in->dims[2], in->dims[3], num_priors(a), 4};
  ic_tensor_set_meta(ic_out(c, OUT_BOXES, 0), in->dtype, 4, d);
  ic_tensor_set_meta(ic_out(c, OUT_VARS, 0), in->dtype, 4, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const pb_attrs *a = c->attrs;
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *img = ic_in(c, IN_IMAGE, 0);
  ic_tensor *boxes = ic_out(c, OUT_BOXES, 0), *vars = ic_out(c, OUT_VARS, 0);
  const ic_dtype dt = in->dtype;
  const int64_t H = in->dims[2], W = in->dims[3], IH = img->dims[2], IW = img->dims[3];
  const int64_t total = ic_tensor_numel_(boxes);
  if (ic_tensor_numel_(in) == 0 || ic_tensor_numel_(img) == 0) {
    for (int64_t i = 0; i < total; i++) det_put(boxes, i, 0), det_put(vars, i, 0);
    return IC_OK;
  }
  double sw = a->step_w, sh = a->step_h;
  if (sw == 0 || sh == 0) {
    sw = det_round(dt, (double)IW / (double)W);
    sh = det_round(dt, (double)IH / (double)H);
  }
  int64_t k = 0;
  for (int64_t h = 0; h < H; h++) {
    for (int64_t w = 0; w < W; w++) {
      const double cx = det_round(dt, (w + a->offset) * sw),
                   cy = det_round(dt, (h + a->offset) * sh);
#define PUT(bw, bh)                                                              \
  do {                                                                           \
    double bw_ = det_round(dt, bw), bh_ = det_round(dt, bh);                     \
    det_put(boxes, k++, (cx - bw_) / (double)IW);                               \
    det_put(boxes, k++, (cy - bh_) / (double)IH);                               \
    det_put(boxes, k++, (cx + bw_) / (double)IW);                               \
    det_put(boxes, k++, (cy + bh_) / (double)IH);                               \
  } while (0)
      for (size_t s = 0; s < a->n_min; s++) {
        const double mn = (float)a->min_sizes[s];
        if (a->mm_order) {
          PUT(mn / 2, mn / 2);
          if (a->n_max) {
            double side = sqrt(mn * (float)a->max_sizes[s]) / 2;
            PUT(side, side);
          }
          for (size_t r = 0; r < a->n_ar; r++) {
            if (fabs(a->ar[r] - 1.0) < 1e-6) continue;
            PUT(mn * sqrt(a->ar[r]) / 2, mn / sqrt(a->ar[r]) / 2);
          }
        } else {
          for (size_t r = 0; r < a->n_ar; r++) {
            PUT(mn * sqrt(a->ar[r]) / 2, mn / sqrt(a->ar[r]) / 2);
          }
          if (a->n_max) {
            double side = sqrt(mn * (float)a->max_sizes[s]) / 2;
            PUT(side, side);
          }
        }
      }
#undef PUT
    }
  }
  if (a->clip) {
    for (int64_t i = 0; i < total; i++) {
      double v = det_get(boxes, i);
      det_put(boxes, i, v < 0 ? 0 : v > 1 ? 1 : v);
    }
  }
  for (int64_t i = 0; i < total; i++) det_put(vars, i, (float)a->variances[i % 4]);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", IC_SLOT_NO_BUFFER}, {"Image", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Boxes", 0}, {"Variances", 0}};

const ic_opdef ic_op_prior_box = {
    .name = "prior_box",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(pb_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
