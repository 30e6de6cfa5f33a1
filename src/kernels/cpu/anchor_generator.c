/* anchor_generator: Faster R-CNN anchors for every cell of a feature map (paddle/phi/kernels/
 * impl/anchor_generator_kernel_impl.h, AnchorGeneratorInferMeta). Input is [N, C, H, W] (only
 * its dims are read); Anchors and Variances are [H, W, ratios x sizes, 4].
 *
 * For cell (h, w) the centre is (w * sw + offset * (sw - 1), h * sh + offset * (sh - 1)) with
 * (sw, sh) = `stride`; for each aspect ratio r (outer) and anchor size s (inner):
 * base_w = round(sqrt(sw * sh / r)), base_h = round(base_w * r), the anchor is
 * (s / sw * base_w) x (s / sh * base_h) and its corners are centre -/+ 0.5 * (size - 1).
 * Every row of Variances is the `variances` attribute. Computed in the input's precision. */
#include <math.h>

#include "kernels/cpu/detection.h"

typedef struct ag_attrs {
  const double *sizes, *ratios, *vars;
  size_t n_sizes, n_ratios;
  double sw, sh, offset;
} ag_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ag_attrs *a = attrs;
  static const double d_sizes[] = {64, 128, 256, 512}, d_ratios[] = {0.5, 1, 2},
                      d_vars[] = {0.1, 0.1, 0.2, 0.2}, d_stride[] = {16, 16};
  const double *stride = d_stride, *v = NULL;
  size_t n_stride = 2, n_vars = 4, n = 0;
  a->sizes = d_sizes, a->n_sizes = 4, a->ratios = d_ratios, a->n_ratios = 3, a->vars = d_vars;
  if (ic_ar_floats(r, "anchor_sizes", false, &v, &n)) a->sizes = v, a->n_sizes = n;
  if (ic_ar_floats(r, "aspect_ratios", false, &v, &n)) a->ratios = v, a->n_ratios = n;
  if (ic_ar_floats(r, "variances", false, &v, &n)) a->vars = v, n_vars = n;
  if (ic_ar_floats(r, "stride", false, &v, &n)) stride = v, n_stride = n;
  a->offset = (float)ic_ar_float(r, "offset", 0.5);
  if (r->st) return r->st;
  if (a->n_sizes == 0) return ic_ar_fail(r, "anchor_sizes", "must not be empty");
  if (a->n_ratios == 0) return ic_ar_fail(r, "aspect_ratios", "must not be empty");
  for (size_t i = 0; i < a->n_ratios; i++) {
    if (!(a->ratios[i] > 0)) {
      return ic_ar_fail(r, "aspect_ratios", "entry %zu is %g, expected > 0", i, a->ratios[i]);
    }
  }
  if (n_vars != 4) return ic_ar_fail(r, "variances", "has %zu entries, expected 4", n_vars);
  if (n_stride != 2) {
    return ic_ar_fail(r, "stride", "has %zu entries, expected 2 (width, height)", n_stride);
  }
  a->sw = (float)stride[0], a->sh = (float)stride[1];
  if (!(a->sw > 0 && a->sh > 0)) {
    return ic_ar_fail(r, "stride", "is [%g, %g], expected > 0", a->sw, a->sh);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ag_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (NCHW)");
  int64_t d[4] = {x->dims[2], x->dims[3], (int64_t)(a->n_sizes * a->n_ratios), 4};
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, d);
  ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, 4, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ag_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *anc = ic_out(c, 0, 0), *var = ic_out(c, 1, 0);
  const ic_dtype dt = x->dtype;
  const int64_t H = x->dims[2], W = x->dims[3];
  const double sw = a->sw, sh = a->sh, area = det_round(dt, sw * sh);
  int64_t k = 0;
  for (int64_t h = 0; h < H; h++) {
    for (int64_t w = 0; w < W; w++) {
      const double xc = det_round(dt, (double)w * sw + det_round(dt, a->offset * (sw - 1)));
      const double yc = det_round(dt, (double)h * sh + det_round(dt, a->offset * (sh - 1)));
      for (size_t r = 0; r < a->n_ratios; r++) {
        const double ar = (float)a->ratios[r];
        const double bw = round(det_round(dt, sqrt(det_round(dt, area / ar))));
        const double bh = round(det_round(dt, bw * ar));
        for (size_t s = 0; s < a->n_sizes; s++) {
          const double size = (float)a->sizes[s];
          const double aw = det_round(dt, det_round(dt, size / sw) * bw);
          const double ah = det_round(dt, det_round(dt, size / sh) * bh);
          det_put(anc, k++, xc - 0.5 * (aw - 1));
          det_put(anc, k++, yc - 0.5 * (ah - 1));
          det_put(anc, k++, xc + 0.5 * (aw - 1));
          det_put(anc, k++, yc + 0.5 * (ah - 1));
        }
      }
    }
  }
  for (int64_t i = 0; i < k; i++) det_put(var, i, (float)a->vars[i % 4]);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Anchors", 0}, {"Variances", 0}};

const ic_opdef ic_op_anchor_generator = {
    .name = "anchor_generator",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ag_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
