/* roi_pool_grad: the gradient of roi_pool for X (phi RoiPoolGradKernel); ROIs get none.
 * Inputs X (dims only), ROIs, RoisNum (optional), Argmax (int64, the forward's) and
 * Out@GRAD [R, C, pooled_height, pooled_width]; output X@GRAD. Each Out@GRAD element is added
 * at the place its Argmax names in its channel plane of its region's image (regions split
 * into images as roi_align does: RoisNum, else ROIs' LoD, else one image); an Argmax of -1 (an
 * empty bin) adds nothing. Accumulated in X's dtype in Out@GRAD's order, as Paddle does. */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/roi_align.h"

enum { IN_X, IN_ROIS, IN_NUM, IN_ARG, IN_DOUT };

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
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_roi_align_attrs *a = c->attrs;
  ic_status st = ic_roi_align_check(c);
  if (st || (st = ic_kcheck_dtype(c, IN_ARG, 0, IC_DT_INT))) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0);
  const ic_tensor *arg = ic_in(c, IN_ARG, 0), *g = ic_in(c, IN_DOUT, 0);
  const int64_t want[4] = {rois->dims[0], x->dims[1], a->ph, a->pw};
  char d[128];
  if (!ic_dims_equal(arg->ndim, arg->dims, 4, want)) {
    return ic_kfail_in(c, IN_ARG, 0, "expected dims %s, the op's Out",
                       ic_dims_str(4, want, d, sizeof d));
  }
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 4, want)) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, the op's Out", ic_dtype_name(x->dtype),
                       ic_dims_str(4, want, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define ROI_GRAD(T)                                                                       \
  do {                                                                                    \
    const T *gd = g->data;                                                                \
    T *dd = dx->data;                                                                     \
    for (int64_t r = 0; r < R; r++) {                                                     \
      for (int64_t ch = 0; ch < C; ch++) {                                                \
        T *pl = dd + (batch[r] * C + ch) * HW;                                            \
        for (int64_t k = 0; k < bins; k++) {                                              \
          const int64_t e = (r * C + ch) * bins + k, at = ic_read_i64(arg, e);            \
          if (at == -1) continue;                                                         \
          if (at < 0 || at >= HW) {                                                       \
            free(batch);                                                                  \
            return ic_kfail_in(c, IN_ARG, 0, "entry %lld is %lld, expected -1 or in [0, %lld)", \
                               (long long)e, (long long)at, (long long)HW);               \
          }                                                                               \
          pl[at] += gd[e];                                                                \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_roi_align_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0);
  const ic_tensor *arg = ic_in(c, IN_ARG, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t C = x->dims[1], HW = x->dims[2] * x->dims[3], R = rois->dims[0];
  const int64_t bins = a->ph * a->pw;
  memset(dx->data, 0, (size_t)ic_tensor_numel_(x) * ic_dtype_size(x->dtype));
  if (R == 0) return IC_OK;
  int64_t *batch = malloc((size_t)R * sizeof *batch);
  if (!batch) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  ic_status st = ic_roi_align_batch(c, batch);
  if (st) {
    free(batch);
    return st;
  }
  if (x->dtype == IC_FP32) ROI_GRAD(float);
  else ROI_GRAD(double);
  free(batch);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER},
                                    {"ROIs", 0},
                                    {"RoisNum", IC_SLOT_OPTIONAL},
                                    {"Argmax", 0},
                                    {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_roi_pool_grad = {
    .name = "roi_pool_grad",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_roi_align_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
