/* density_prior_box: prior boxes laid out densely around each cell (paddle/fluid/operators/
 * detection/density_prior_box_op.{cc,h}, phi DensityPriorBoxKernel). Input [N, C, H, W] and
 * Image [N, C, IH, IW] are read for their dims only (H < IH and W < IW are required, as in
 * Paddle). Boxes and Variances are [H, W, num_priors, 4], or [H * W * num_priors, 4] with
 * flatten_to_2d, where num_priors = len(fixed_ratios) * sum(density^2).
 *
 * Steps default to IW / W and IH / H when either step attribute is 0; avg = (int)((sw + sh) / 2)
 * and, for fixed size i with density d, shift = avg / d (integer division). Around the cell
 * centre ((w + offset) * sw, (h + offset) * sh), for each ratio r: a box of
 * size * sqrt(r) by size / sqrt(r) centred at (cx - avg / 2 + shift / 2 + dj * shift,
 * cy - avg / 2 + shift / 2 + di * shift) for di, dj < d (row-major). Coordinates are divided
 * by IW / IH, the minimum corner clamped at 0 and the maximum at 1 always (as Paddle does),
 * and all of them to [0, 1] with `clip`. Intermediate values are floats, as in Paddle. */
#include <math.h>

#include "kernels/cpu/detection.h"

typedef struct dpb_attrs {
  const double *sizes, *ratios, *vars;
  const int64_t *dens;
  size_t n_sizes, n_ratios;
  bool clip, flatten;
  double step_w, step_h, offset;
  int64_t num_priors;
} dpb_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dpb_attrs *a = attrs;
  size_t n_vars = 0, n_dens = 0;
  ic_ar_floats(r, "variances", true, &a->vars, &n_vars);
  a->clip = ic_ar_bool(r, "clip", true);
  a->flatten = ic_ar_bool(r, "flatten_to_2d", false);
  a->step_w = (float)ic_ar_float(r, "step_w", 0.0);
  a->step_h = (float)ic_ar_float(r, "step_h", 0.0);
  a->offset = (float)ic_ar_float(r, "offset", 0.5);
  ic_ar_floats(r, "fixed_sizes", false, &a->sizes, &a->n_sizes);
  ic_ar_floats(r, "fixed_ratios", false, &a->ratios, &a->n_ratios);
  ic_ar_ints(r, "densities", false, &a->dens, &n_dens);
  if (r->st) return r->st;
  if (n_vars != 4) return ic_ar_fail(r, "variances", "has %zu entries, expected 4", n_vars);
  for (size_t i = 0; i < 4; i++) {
    if (!(a->vars[i] > 0)) {
      return ic_ar_fail(r, "variances", "entry %zu is %g, expected > 0", i, a->vars[i]);
    }
  }
  if (!(a->step_w >= 0) || !(a->step_h >= 0)) {
    return ic_ar_fail(r, a->step_w >= 0 ? "step_h" : "step_w", "is negative, expected >= 0");
  }
  if (n_dens != a->n_sizes) {
    return ic_ar_fail(r, "densities", "has %zu entries, expected one per fixed size (%zu)", n_dens,
                      a->n_sizes);
  }
  a->num_priors = 0;
  for (size_t i = 0; i < a->n_sizes; i++) {
    if (!(a->sizes[i] > 0)) {
      return ic_ar_fail(r, "fixed_sizes", "entry %zu is %g, expected > 0", i, a->sizes[i]);
    }
    if (a->dens[i] <= 0 || a->dens[i] > 1024) {
      return ic_ar_fail(r, "densities", "entry %zu is %lld, expected in [1, 1024]", i,
                        (long long)a->dens[i]);
    }
    a->num_priors += (int64_t)a->n_ratios * a->dens[i] * a->dens[i];
  }
  for (size_t i = 0; i < a->n_ratios; i++) {
    if (!(a->ratios[i] > 0)) {
      return ic_ar_fail(r, "fixed_ratios", "entry %zu is %g, expected > 0", i, a->ratios[i]);
    }
  }
  return IC_OK;
}

enum { IN_INPUT, IN_IMAGE };

static ic_status infer(ic_kctx *c) {
  const dpb_attrs *a = c->attrs;
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *img = ic_in(c, IN_IMAGE, 0);
  ic_status st = ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT);
  if (st) return st;
  if (in->ndim != 4) return ic_kfail_in(c, IN_INPUT, 0, "expected rank 4 (NCHW)");
  if (img->ndim != 4) return ic_kfail_in(c, IN_IMAGE, 0, "expected rank 4 (NCHW)");
  if (!(in->dims[2] < img->dims[2] && in->dims[3] < img->dims[3])) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected a feature map smaller than Image (%lld x %lld)",
                       (long long)img->dims[2], (long long)img->dims[3]);
  }
  int64_t d4[4] = {in->dims[2], in->dims[3], a->num_priors, 4};
  int64_t d2[2] = {in->dims[2] * in->dims[3] * a->num_priors, 4};
  for (int k = 0; k < 2; k++) {
    ic_tensor_set_meta(ic_out(c, (size_t)k, 0), in->dtype, a->flatten ? 2 : 4,
                       a->flatten ? d2 : d4);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const dpb_attrs *a = c->attrs;
  const ic_tensor *in = ic_in(c, IN_INPUT, 0), *img = ic_in(c, IN_IMAGE, 0);
  ic_tensor *boxes = ic_out(c, 0, 0), *vars = ic_out(c, 1, 0);
  const ic_dtype dt = in->dtype;
  const int64_t H = in->dims[2], W = in->dims[3];
  const double IH = (double)img->dims[2], IW = (double)img->dims[3];
  double sw = a->step_w, sh = a->step_h;
  if (sw == 0 || sh == 0) sw = det_round(dt, IW / (double)W), sh = det_round(dt, IH / (double)H);
  const int avg = (int)((sw + sh) * 0.5);
  int64_t k = 0;
  for (int64_t h = 0; h < H; h++) {
    for (int64_t w = 0; w < W; w++) {
      const double cx = det_round(dt, ((double)w + a->offset) * sw);
      const double cy = det_round(dt, ((double)h + a->offset) * sh);
      for (size_t s = 0; s < a->n_sizes; s++) {
        const float size = (float)a->sizes[s];
        const int d = (int)a->dens[s], shift = avg / d;
        for (size_t r = 0; r < a->n_ratios; r++) {
          const float sq = sqrtf((float)a->ratios[r]);
          const float bw = size * sq, bh = size / sq;
          const float dcx = (float)(cx - avg / 2. + shift / 2.);
          const float dcy = (float)(cy - avg / 2. + shift / 2.);
          for (int di = 0; di < d; di++) {
            for (int dj = 0; dj < d; dj++) {
              const float x = dcx + (float)(dj * shift), y = dcy + (float)(di * shift);
              double v[4] = {fmax((x - bw / 2.) / IW, 0.), fmax((y - bh / 2.) / IH, 0.),
                             fmin((x + bw / 2.) / IW, 1.), fmin((y + bh / 2.) / IH, 1.)};
              for (int q = 0; q < 4; q++) {
                double o = det_round(dt, v[q]);
                if (a->clip) o = o < 0 ? 0 : o > 1 ? 1 : o;
                det_put(boxes, k++, o);
              }
            }
          }
        }
      }
    }
  }
  for (int64_t i = 0; i < k; i++) det_put(vars, i, (float)a->vars[i % 4]);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", IC_SLOT_NO_BUFFER}, {"Image", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Boxes", 0}, {"Variances", 0}};

const ic_opdef ic_op_density_prior_box = {
    .name = "density_prior_box",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(dpb_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
