/* psroi_pool_grad: the gradient of psroi_pool for X (phi PsroiPoolGradKernel); ROIs get
 * none. Inputs X (dims only), ROIs, RoisNum (optional), Out@GRAD [R, output_channels,
 * pooled_height, pooled_width]; output X@GRAD. Each Out@GRAD element, divided by its bin's
 * area, is added to every pixel of the bin in its input channel (c * pooled_height + ph) *
 * pooled_width + pw of its region's image: the same boxes and bins as psroi_pool (psroi.h;
 * an empty bin adds nothing). Accumulated in X's dtype in Out@GRAD's order, as Paddle does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/psroi.h"

enum { IN_DOUT = IC_PSROI_NUM + 1 };

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_psroi_parse(r, attrs, 1); }

static ic_status infer(ic_kctx *c) {
  const psroi_attrs *a = c->attrs;
  ic_status st = ic_psroi_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_PSROI_X, 0), *rois = ic_in(c, IC_PSROI_ROIS, 0);
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  const int64_t want[4] = {rois->dims[0], a->oc, a->ra.ph, a->ra.pw};
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 4, want)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, the op's Out", ic_dtype_name(x->dtype),
                       ic_dims_str(4, want, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define DEFINE_GRAD(name, T, ROUND, FLOOR, CEIL)                                               \
  static void name(const psroi_attrs *a, const T *box, const T *gd, int64_t H, int64_t W,    \
                   T *img) {                                                                 \
    IC_PSROI_BINS(T, ROUND, FLOOR, CEIL, a, box, H, W, {                                     \
      if (h1 <= h0 || w1 <= w0) continue;                                                    \
      T *d = img + k * H * W;                                                                \
      const T v = gd[k] / (T)((h1 - h0) * (w1 - w0));                                        \
      for (int64_t h = h0; h < h1; h++) {                                                    \
        for (int64_t w = w0; w < w1; w++) d[h * W + w] += v;                                 \
      }                                                                                      \
    });                                                                                      \
  }
DEFINE_GRAD(grad_f32, float, roundf, floorf, ceilf)
DEFINE_GRAD(grad_f64, double, round, floor, ceil)

static ic_status run(ic_kctx *c) {
  const psroi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_PSROI_X, 0), *rois = ic_in(c, IC_PSROI_ROIS, 0);
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t C = x->dims[1], H = x->dims[2], W = x->dims[3], R = rois->dims[0];
  memset(dx->data, 0, (size_t)ic_tensor_numel_(x) * ic_dtype_size(x->dtype));
  if (R == 0) return IC_OK;
  int64_t *batch = malloc((size_t)R * sizeof *batch);
  if (!batch) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  ic_status st = ic_roi_align_batch(c, batch);
  const int64_t plane = C * H * W, oplane = a->oc * a->ra.ph * a->ra.pw;
  for (int64_t r = 0; r < R && !st; r++) {
    if (x->dtype == IC_FP32) {
      grad_f32(a, (const float *)rois->data + r * 4, (const float *)g->data + r * oplane, H, W,
               (float *)dx->data + batch[r] * plane);
    } else {
      grad_f64(a, (const double *)rois->data + r * 4, (const double *)g->data + r * oplane, H,
               W, (double *)dx->data + batch[r] * plane);
    }
  }
  free(batch);
  return st;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER},
                                    {"ROIs", 0},
                                    {"RoisNum", IC_SLOT_OPTIONAL},
                                    {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_psroi_pool_grad = {
    .name = "psroi_pool_grad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(psroi_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
