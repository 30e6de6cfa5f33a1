/* deformable_psroi_pooling_grad (Paddle 2.6's DeformablePSROIPoolGradCPUKernel): for every
 * output bin with a TopCount above 0, diff = Output@GRAD / TopCount goes to each sample point
 * the forward read (deformable_psroi_pooling.c): Input@GRAD's four bilinear neighbours get
 * diff times their weights, and, unless no_trans, the bin's Trans@GRAD offset gets
 *   x: (u11 dy + u10 (1 - dy) - u01 dy - u00 (1 - dy)) * trans_std * diff * roi_width,
 *   y: (u11 dx + u01 (1 - dx) - u10 dx - u00 (1 - dx)) * trans_std * diff * roi_height,
 * u the four neighbours' Input values. As Paddle's grad kernel, the bin's part column is
 * floor(pw / pooled_width * part_height) (part_height, where the forward uses part_width: the
 * same unless part_size is not square), for reading Trans and for writing Trans@GRAD; a part
 * that falls outside Trans is refused. Accumulated in the dtype in output order, as Paddle
 * does. Inputs Input, ROIs (LoD), Trans, TopCount (the forward's), Output@GRAD; outputs
 * Input@GRAD and Trans@GRAD (each optional; Trans@GRAD all zeros under no_trans). float32,
 * float64. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/deformable_psroi_pooling.h"

enum { IN_COUNT = 3, IN_DOUT = 4 };

static ic_status infer(ic_kctx *c) {
  const ic_dpsroi_attrs *a = c->attrs;
  int64_t nc, pc;
  ic_status st = ic_dpsroi_check(c, &nc, &pc);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_DPSROI_INPUT, 0), *tr = ic_in(c, IC_DPSROI_TRANS, 0);
  const int64_t d[4] = {ic_in(c, IC_DPSROI_ROIS, 0)->dims[0], a->output_dim, a->ph, a->pw};
  for (size_t s = IN_COUNT; s <= IN_DOUT; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, 4, d)) {
      char e[128];
      return ic_kfail_in(c, s, 0, "expected %s%s, the op's Output", ic_dtype_name(x->dtype),
                         ic_dims_str(4, d, e, sizeof e));
    }
  }
  ic_tensor *dx = ic_out(c, 0, 0), *dt = ic_out(c, 1, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, 4, x->dims);
  if (dt) ic_tensor_set_meta(dt, tr->dtype, tr->ndim, tr->dims);
  return IC_OK;
}

#define DEFINE_BWD(T, ROUND, FLOOR, CEIL)                                                     \
  IC_DPSROI_BIN(T, ROUND, FLOOR)                                                            \
  static ic_status bwd_##T(ic_kctx *c, const ic_dpsroi_attrs *a, const T *xd, const T *rois, \
                           const T *trans, int64_t n_trans, const T *cnt, const T *gd,      \
                           const int64_t *batch, int64_t R, int64_t C, int64_t H,           \
                           int64_t W, int64_t nc, int64_t pc, T *dx, T *dt) {               \
    int64_t ix = 0;                                                                         \
    for (int64_t n = 0; n < R; n++)                                                         \
      for (int64_t ctop = 0; ctop < a->output_dim; ctop++)                                  \
        for (int64_t py = 0; py < a->ph; py++)                                              \
          for (int64_t px = 0; px < a->pw; px++, ix++) {                                    \
            if (!a->no_trans) {                                                             \
              const int64_t pw_ = (int64_t)FLOOR((T)px / (T)a->pw * (T)a->part_h);          \
              const int64_t cls = ctop / pc, ph_ = (int64_t)FLOOR((T)py / (T)a->ph *        \
                                                                   (T)a->part_h);           \
              const int64_t last = (((n * nc + cls) * 2 + 1) * a->part_h + ph_) * a->part_w + pw_; \
              if (last >= n_trans) {                                                        \
                return ic_kfail_in(c, IC_DPSROI_TRANS, 0,                                   \
                                   "is read at element %lld (part column %lld of bin %lld, " \
                                   "Paddle's grad rule with part_size %lld x %lld), past its " \
                                   "%lld elements", (long long)last, (long long)pw_,        \
                                   (long long)px, (long long)a->part_h, (long long)a->part_w, \
                                   (long long)n_trans);                                     \
              }                                                                             \
            }                                                                               \
            dpsroi_bin_##T b;                                                               \
            dpsroi_bin_##T##_of(a, rois + n * 4, trans, n, ctop, py, px, nc, pc, a->part_h, \
                                &b);                                                        \
            if (cnt[ix] <= 0) continue;                                                     \
            const T diff = gd[ix] / cnt[ix];                                                \
            const int64_t base = (batch[n] * C + b.chan) * H * W;                           \
            for (int64_t ih = 0; ih < a->spp; ih++) {                                       \
              for (int64_t iw = 0; iw < a->spp; iw++) {                                     \
                T w = b.wstart + (T)iw * b.sub_w, h = b.hstart + (T)ih * b.sub_h;           \
                if ((double)w < -0.5 || (double)w > (double)W - 0.5 || (double)h < -0.5 ||  \
                    (double)h > (double)H - 0.5) {                                          \
                  continue;                                                                 \
                }                                                                           \
                w = w > (T)0 ? w : (T)0;                                                    \
                w = w < (T)(W - 1) ? w : (T)(W - 1);                                        \
                h = h > (T)0 ? h : (T)0;                                                    \
                h = h < (T)(H - 1) ? h : (T)(H - 1);                                        \
                const int64_t x0 = (int64_t)FLOOR(w), x1 = (int64_t)CEIL(w);                \
                const int64_t y0 = (int64_t)FLOOR(h), y1 = (int64_t)CEIL(h);                \
                const T ddx = w - (T)x0, ddy = h - (T)y0;                                   \
                const T q00 = ((T)1 - ddx) * ((T)1 - ddy), q01 = ((T)1 - ddx) * ddy;        \
                const T q10 = ddx * ((T)1 - ddy), q11 = ddx * ddy;                          \
                if (dx) {                                                                   \
                  dx[base + y0 * W + x0] += q00 * diff;                                     \
                  dx[base + y1 * W + x0] += q01 * diff;                                     \
                  dx[base + y0 * W + x1] += q10 * diff;                                     \
                  dx[base + y1 * W + x1] += q11 * diff;                                     \
                }                                                                           \
                if (a->no_trans || !dt) continue;                                           \
                const T u00 = xd[base + y0 * W + x0], u01 = xd[base + y1 * W + x0];         \
                const T u10 = xd[base + y0 * W + x1], u11 = xd[base + y1 * W + x1];         \
                const T ts = (T)(float)a->trans_std;                                        \
                T gx = (u11 * ddy + u10 * ((T)1 - ddy) - u01 * ddy - u00 * ((T)1 - ddy)) *  \
                       ts * diff;                                                           \
                gx *= b.roi_w;                                                              \
                T gy = (u11 * ddx + u01 * ((T)1 - ddx) - u10 * ddx - u00 * ((T)1 - ddx)) *  \
                       ts * diff;                                                           \
                gy *= b.roi_h;                                                              \
                dt[b.trans_x] += gx;                                                        \
                dt[b.trans_y] += gy;                                                        \
              }                                                                             \
            }                                                                               \
          }                                                                                 \
    return IC_OK;                                                                           \
  }
DEFINE_BWD(float, roundf, floorf, ceilf)
DEFINE_BWD(double, round, floor, ceil)

static ic_status run(ic_kctx *c) {
  const ic_dpsroi_attrs *a = c->attrs;
  int64_t nc, pc;
  ic_status st = ic_dpsroi_check(c, &nc, &pc);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_DPSROI_INPUT, 0), *rois = ic_in(c, IC_DPSROI_ROIS, 0);
  const ic_tensor *tr = ic_in(c, IC_DPSROI_TRANS, 0), *cnt = ic_in(c, IN_COUNT, 0);
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dt = ic_out(c, 1, 0);
  const size_t es = ic_dtype_size(x->dtype);
  if (dx) memset(dx->data, 0, (size_t)ic_tensor_numel_(x) * es);
  if (dt) memset(dt->data, 0, (size_t)ic_tensor_numel_(tr) * es);
  const int64_t R = rois->dims[0];
  if (R == 0) return IC_OK;
  int64_t *batch = malloc((size_t)R * sizeof *batch);
  if (!batch) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  size_t ns;
  const uint64_t *off = ic_kseq(c, IC_DPSROI_ROIS, 0, 0, &ns);
  for (size_t i = 0; i < ns; i++) {
    for (uint64_t r = off[i]; r < off[i + 1]; r++) batch[r] = (int64_t)i;
  }
  const int64_t nt = ic_tensor_numel_(tr);
  if (x->dtype == IC_FP32) {
    st = bwd_float(c, a, x->data, rois->data, tr->data, nt, cnt->data, g->data, batch, R,
                   x->dims[1], x->dims[2], x->dims[3], nc, pc, dx ? dx->data : NULL,
                   dt ? dt->data : NULL);
  } else {
    st = bwd_double(c, a, x->data, rois->data, tr->data, nt, cnt->data, g->data, batch, R,
                    x->dims[1], x->dims[2], x->dims[3], nc, pc, dx ? dx->data : NULL,
                    dt ? dt->data : NULL);
  }
  free(batch);
  return st;
}

static const ic_slotdef inputs[] = {
    {"Input", 0}, {"ROIs", 0}, {"Trans", 0}, {"TopCount", 0}, {"Output@GRAD", 0}};
static const ic_slotdef outputs[] = {{"Input@GRAD", IC_SLOT_OPTIONAL},
                                     {"Trans@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_deformable_psroi_pooling_grad = {
    .name = "deformable_psroi_pooling_grad",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ic_dpsroi_attrs), .parse = ic_dpsroi_parse,
    .infer = infer, .cpu = run,
};
