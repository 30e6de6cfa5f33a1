/* psroi_pool: position-sensitive average pooling of regions of interest (R-FCN;
 * paddle/phi/kernels/cpu/psroi_pool_kernel.cc, PsroiPoolInferMeta).
 *
 * X is [N, output_channels * pooled_height * pooled_width, H, W], ROIs [R, 4] boxes (x0, y0,
 * x1, y1), Out [R, output_channels, pooled_height, pooled_width]; output_channels > 1, as
 * in Paddle. Regions are split into images as roi_align does (RoisNum, else ROIs' LoD, else
 * one image). Each bin (psroi.h: boxes and bins shared with psroi_pool_grad) averages its
 * input channel over its rows and columns; an empty bin gives 0. Computed in X's precision,
 * in Paddle's order. */
#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/psroi.h"

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_psroi_parse(r, attrs, 2); }

static ic_status infer(ic_kctx *c) {
  const psroi_attrs *a = c->attrs;
  ic_status st = ic_psroi_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_PSROI_X, 0), *rois = ic_in(c, IC_PSROI_ROIS, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4,
                     (int64_t[]){rois->dims[0], a->oc, a->ra.ph, a->ra.pw});
  return IC_OK;
}

#define DEFINE_ROI(name, T, ROUND, FLOOR, CEIL)                                                \
  static void name(const psroi_attrs *a, const T *box, const T *img, int64_t H, int64_t W,   \
                   T *out) {                                                                 \
    IC_PSROI_BINS(T, ROUND, FLOOR, CEIL, a, box, H, W, {                                     \
      const T *d = img + k * H * W;                                                          \
      T sum = 0;                                                                             \
      for (int64_t h = h0; h < h1; h++) {                                                    \
        for (int64_t w = w0; w < w1; w++) sum += d[h * W + w];                               \
      }                                                                                      \
      const T area = (T)((h1 - h0) * (w1 - w0));                                             \
      out[k] = h1 <= h0 || w1 <= w0 ? (T)0 : sum / area;                                     \
    });                                                                                      \
  }
DEFINE_ROI(roi_f32, float, roundf, floorf, ceilf)
DEFINE_ROI(roi_f64, double, round, floor, ceil)

static ic_status run(ic_kctx *c) {
  const psroi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_PSROI_X, 0), *rois = ic_in(c, IC_PSROI_ROIS, 0);
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
