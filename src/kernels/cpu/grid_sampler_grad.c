/* grid_sampler_grad: the gradients of grid_sampler (phi GridSampleGradKernel), 2-D and 3-D,
 * every mode, padding_mode and align_corners (see grid_sampler.c for the forward). Inputs X,
 * Grid, Output@GRAD; outputs X@GRAD and Grid@GRAD (both optional). Per output point, with
 * the coordinate c = pad(unnormalize(g)) of every axis:
 *   bilinear: X@GRAD of each corner inside the image gains Output@GRAD times the corner's
 *             weight; Grid@GRAD along an axis is the sum over channels of Output@GRAD times
 *             d(value)/dc (the corners' differences along that axis, weighted by the other
 *             axes) times dc/dg: the unnormalization's scale (max / 2 with align_corners,
 *             size / 2 otherwise), times 0 where border or reflection clipped c to the
 *             image's bounds, times -1 where reflection folded it back;
 *   nearest:  X@GRAD of the rounded position (if inside) gains Output@GRAD; Grid@GRAD is 0.
 * Sums run in double and are rounded once. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/grid_sampler.h"

enum { IN_X, IN_GRID, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  ic_tensor *dx = ic_out(c, 0, 0), *dg = ic_out(c, 1, 0);
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_GRID, 0), *go = ic_in(c, IN_DOUT, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const int sp = x->ndim - 2;
  if ((x->ndim != 4 && x->ndim != 5) || g->dtype != x->dtype || g->ndim != x->ndim ||
      g->dims[0] != x->dims[0] || g->dims[g->ndim - 1] != sp) {
    return ic_kfail_in(c, IN_GRID, 0, "expected %s[N, %s, %d] with X of rank 4 or 5 (X '%s')",
                       ic_dtype_name(x->dtype), sp == 3 ? "OD, OH, OW" : "OH, OW", sp,
                       ic_in_name(c, IN_X, 0));
  }
  int64_t d[5] = {x->dims[0], x->dims[1]};
  for (int i = 0; i < sp; i++) d[2 + i] = g->dims[1 + i];
  if (go->dtype != x->dtype || !ic_dims_equal(go->ndim, go->dims, x->ndim, d)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, the op's Output", ic_dtype_name(x->dtype),
                       ic_dims_str(x->ndim, d, s, sizeof s));
  }
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  if (dg) ic_tensor_set_meta(dg, g->dtype, g->ndim, g->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

/* The padded coordinate of grid value g along an axis of `size`, and dc/dg. */
static double coord(const ic_gs_attrs *a, double g, int64_t size, double *dc) {
  const int64_t max = size - 1;
  double v, s;
  if (a->align_corners) {
    s = (double)max * 0.5;
    v = (g + 1) * s;
  } else {
    s = (double)size * 0.5;
    v = (g + 1) * s - 0.5;
  }
  if (a->pad == PAD_BORDER) {
    if (v <= 0 || v >= (double)max) s = 0;
    v = v < 0 ? 0 : v > (double)max ? (double)max : v;
  } else if (a->pad == PAD_REFLECTION) {
    const double off = a->align_corners ? 0 : 0.5;
    if (a->align_corners && max == 0) {
      *dc = 0;
      return 0;
    }
    const double dr = a->align_corners ? (double)(max * 2) : (double)((max + 1) * 2);
    const double w = v + off, sg = w < 0 ? -1 : 1, ab = fabs(w);
    const double e = ab - floor(ab / dr) * dr;
    double r;
    if (e < dr - e) {
      r = e;
      s *= sg;
    } else {
      r = dr - e;
      s *= -sg;
    }
    r -= off;
    if (!a->align_corners && (r <= 0 || r >= (double)max)) s = 0;
    v = r < 0 ? 0 : r > (double)max ? (double)max : r;
  }
  *dc = s;
  return v;
}

static ic_status run(ic_kctx *c) {
  const ic_gs_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *gt = ic_in(c, IN_GRID, 0), *go = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dg = ic_out(c, 1, 0);
  const int sp = x->ndim - 2;
  const int64_t N = x->dims[0], C = x->dims[1], *sz = x->dims + 2;
  const int64_t S = ic_numel(sp, sz), P = ic_numel(sp, gt->dims + 1);
  const int64_t nx = ic_tensor_numel_(x), ng = ic_tensor_numel_(gt);
  ic_buffer *buf = ic_kscratch(c, (size_t)(nx + ng + 1) * sizeof(double));
  if (!buf) return c->err->code;
  double *ax = buf->data, *ag = ax + nx;
  memset(ax, 0, (size_t)(nx + ng) * sizeof(double));
  /* axis k of the grid (x, y, z) runs along X's spatial dim sp - 1 - k */
  int64_t size[3], step[3];
  for (int k = 0; k < sp; k++) {
    size[k] = sz[sp - 1 - k];
    step[k] = 1;
    for (int j = sp - k; j < sp; j++) step[k] *= sz[j];
  }
  const int ncorner = 1 << sp;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t p = 0; p < P; p++) {
      const int64_t gi = (n * P + p) * sp;
      double cc[3], dc[3], lo[3];
      for (int k = 0; k < sp; k++) {
        cc[k] = coord(a, get(gt, gi + k), size[k], &dc[k]);
        lo[k] = floor(cc[k]);
      }
      if (a->nearest) {
        int64_t off = 0;
        bool in = true;
        for (int k = 0; k < sp; k++) {
          const double r = round(cc[k]);
          if (r < 0 || r > (double)(size[k] - 1)) in = false;
          else off += (int64_t)r * step[k];
        }
        if (!in) continue;
        for (int64_t ch = 0; ch < C; ch++) {
          ax[(n * C + ch) * S + off] += get(go, (n * C + ch) * P + p);
        }
        continue;
      }
      double dv[3] = {0, 0, 0};
      for (int b = 0; b < ncorner; b++) {
        int64_t off = 0;
        bool in = true;
        double w = 1, wd[3] = {1, 1, 1}; /* weight; its derivative along each axis */
        for (int k = 0; k < sp; k++) {
          const bool hi = (b >> k) & 1;
          const double pos = lo[k] + (hi ? 1 : 0);
          const double f = hi ? cc[k] - lo[k] : lo[k] + 1 - cc[k];
          if (pos < 0 || pos > (double)(size[k] - 1)) in = false;
          else off += (int64_t)pos * step[k];
          for (int j = 0; j < sp; j++) wd[j] *= j == k ? (hi ? 1 : -1) : f;
          w *= f;
        }
        if (!in) continue;
        for (int64_t ch = 0; ch < C; ch++) {
          const double gv = get(go, (n * C + ch) * P + p);
          const int64_t xe = (n * C + ch) * S + off;
          ax[xe] += gv * w;
          if (dg) {
            const double xv = get(x, xe);
            for (int k = 0; k < sp; k++) dv[k] += gv * xv * wd[k];
          }
        }
      }
      for (int k = 0; k < sp; k++) ag[gi + k] = dv[k] * dc[k];
    }
  }
  if (dx) {
    for (int64_t i = 0; i < nx; i++) {
      if (dx->dtype == IC_FP32) ((float *)dx->data)[i] = (float)ax[i];
      else ((double *)dx->data)[i] = ax[i];
    }
  }
  if (dg) {
    for (int64_t i = 0; i < ng; i++) {
      if (dg->dtype == IC_FP32) ((float *)dg->data)[i] = (float)ag[i];
      else ((double *)dg->data)[i] = ag[i];
    }
  }
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Grid", 0}, {"Output@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                     {"Grid@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_grid_sampler_grad = {
    .name = "grid_sampler_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ic_gs_attrs), .parse = ic_grid_sampler_parse,
    .infer = infer, .cpu = run,
};
