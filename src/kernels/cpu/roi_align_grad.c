/* roi_align_grad: the gradient of roi_align for X (phi RoiAlignGradKernel); ROIs get none.
 * Inputs X (meta only), ROIs, RoisNum (optional), Out@GRAD; output X@GRAD. Every bin's
 * Out@GRAD, divided by the bin's sample count, is added onto the four neighbours of each of
 * its sample points with the bilinear weights roi_align used (the same boxes, grid, skipped
 * points and clamping, roi_align.c), in double, rounded once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/detection.h"
#include "kernels/cpu/roi_align.h"

enum { IN_X, IN_ROIS, IN_NUM, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_roi_align_attrs *a = c->attrs;
  ic_status st = ic_roi_align_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0), *g = ic_in(c, IN_DOUT, 0);
  const int64_t want[4] = {rois->dims[0], x->dims[1], a->ph, a->pw};
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 4, want)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, the op's Out", ic_dtype_name(x->dtype),
                       ic_dims_str(4, want, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

/* One sample point: the four neighbours' offsets and weights (all 0 when skipped). */
static void point(double y, double x, int64_t H, int64_t W, int64_t off[4], double wt[4]) {
  if (y < -1.0 || y > (double)H || x < -1.0 || x > (double)W) {
    for (int q = 0; q < 4; q++) off[q] = 0, wt[q] = 0;
    return;
  }
  y = y <= 0 ? 0 : y;
  x = x <= 0 ? 0 : x;
  int64_t xl = (int64_t)x, xh, yl = (int64_t)y, yh;
  if (xl >= W - 1) xh = xl = W - 1, x = (double)xl;
  else xh = xl + 1;
  if (yl >= H - 1) yh = yl = H - 1, y = (double)yl;
  else yh = yl + 1;
  const double lx = (double)xh - x, ly = (double)yh - y;
  off[0] = yl * W + xl, wt[0] = lx * ly;
  off[1] = yl * W + xh, wt[1] = (1 - lx) * ly;
  off[2] = yh * W + xl, wt[2] = lx * (1 - ly);
  off[3] = yh * W + xh, wt[3] = (1 - lx) * (1 - ly);
}

static ic_status run(ic_kctx *c) {
  const ic_roi_align_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t C = x->dims[1], H = x->dims[2], W = x->dims[3], R = rois->dims[0];
  const int64_t nx = ic_tensor_numel_(dx), plane = C * H * W, ph = a->ph, pw = a->pw;
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *acc = s->data;
  memset(acc, 0, (size_t)nx * sizeof(double));
  int64_t *batch = malloc((size_t)(R ? R : 1) * sizeof *batch);
  if (!batch) {
    ic_buffer_release(s);
    return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  ic_status st = R ? ic_roi_align_batch(c, batch) : IC_OK;
  for (int64_t r = 0; r < R && !st; r++) {
    const double roff = a->aligned ? 0.5 : 0, sc = (float)a->scale;
    const double x0 = get(rois, r * 4) * sc - roff, y0 = get(rois, r * 4 + 1) * sc - roff;
    double rw = get(rois, r * 4 + 2) * sc - roff - x0, rh = get(rois, r * 4 + 3) * sc - roff - y0;
    if (!a->aligned) {
      rw = rw > 1 ? rw : 1;
      rh = rh > 1 ? rh : 1;
    }
    const double gh_ = a->sampling > 0 ? (double)a->sampling : ceil(rh / (double)ph);
    const double gw_ = a->sampling > 0 ? (double)a->sampling : ceil(rw / (double)pw);
    const int gh = gh_ > 0 ? (int)gh_ : 0, gw = gw_ > 0 ? (int)gw_ : 0;
    if (gh == 0 || gw == 0) continue; /* no points: the forward's bins are NaN */
    const double bw = rw / (double)pw, bh = rh / (double)ph, count = 1.0 / ((double)gh * gw);
    double *img = acc + batch[r] * plane;
    for (int64_t py = 0; py < ph; py++) {
      for (int64_t px = 0; px < pw; px++) {
        for (int iy = 0; iy < gh; iy++) {
          const double y = y0 + bh * ((double)py + (iy + .5) / (double)gh);
          for (int ix = 0; ix < gw; ix++) {
            const double xx = x0 + bw * ((double)px + (ix + .5) / (double)gw);
            int64_t off[4];
            double wt[4];
            point(y, xx, H, W, off, wt);
            for (int64_t ch = 0; ch < C; ch++) {
              const double gv = get(g, ((r * C + ch) * ph + py) * pw + px) * count;
              double *d = img + ch * H * W;
              for (int q = 0; q < 4; q++) d[off[q]] += gv * wt[q];
            }
          }
        }
      }
    }
  }
  if (!st) {
    for (int64_t i = 0; i < nx; i++) {
      if (dx->dtype == IC_FP32) ((float *)dx->data)[i] = (float)acc[i];
      else ((double *)dx->data)[i] = acc[i];
    }
  }
  free(batch);
  ic_buffer_release(s);
  return st;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER},
                                    {"ROIs", 0},
                                    {"RoisNum", IC_SLOT_OPTIONAL},
                                    {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_roi_align_grad = {
    .name = "roi_align_grad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_roi_align_attrs), .parse = ic_roi_align_parse,
    .infer = infer, .cpu = run,
};
