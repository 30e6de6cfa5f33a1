/* deformable_psroi_pooling (Deformable R-FCN's deformable position-sensitive RoI pooling;
 * paddle/fluid/operators/deformable_psroi_pooling_op.h, Paddle 2.6's CPU kernel; Paddle 3
 * dropped the op).
 *
 * Input [N, C, H, W]; ROIs [R, 4] boxes (x0, y0, x1, y1) split into the N images by their
 * LoD (last level, one sequence per image); Trans [R, 2 * num_classes, part_height,
 * part_width] the normalized offsets of each region's parts (x then y per class; read unless
 * no_trans, but present either way as Paddle requires). Output and TopCount are [R,
 * output_dim, pooled_height, pooled_width]. For region n, output channel ctop and bin
 * (ph, pw), in X's dtype as Paddle:
 *   the box corners are rounded, scaled by spatial_scale and shifted by -0.5 (ends from
 *   round + 1), the region at least 0.1 wide and high, bins of roi / pooled size;
 *   part (floor(ph / pooled_height * part_height), floor(pw / pooled_width * part_width)) and
 *   class ctop / (output_dim / num_classes) pick Trans's offset (dx, dy) * trans_std, which
 *   moves the bin's start by (dx * roi_width, dy * roi_height);
 *   the input channel is (ctop * group_height + gh) * group_width + gw, gh = floor(ph *
 *   group_height / pooled_height) clamped (gw likewise);
 *   sample_per_part x sample_per_part points spaced bin / sample_per_part from the start;
 *   a point outside [-0.5, size - 0.5] is skipped, others are clamped to [0, size - 1] and
 *   read bilinearly (floor and ceil neighbours);
 *   Output = the mean of the samples read (0 when none), TopCount = their number.
 * ROIs' LoD must hold one sequence per image (the grad accepts fewer, as Paddle's).
 * Input needs at least output_dim * group_height * group_width channels, and every class
 * index must name one of Trans's classes (Paddle reads past its tensors otherwise).
 * float32, float64. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/deformable_psroi_pooling.h"

static ic_status read2(ic_attr_reader *r, const char *name, int64_t *h, int64_t *w) {
  const int64_t *v;
  size_t n;
  if (!ic_ar_ints(r, name, true, &v, &n)) return r->st;
  if (n != 2 || v[0] < 1 || v[1] < 1) {
    return ic_ar_fail(r, name, "expected two values >= 1 (height, width)");
  }
  *h = v[0], *w = v[1];
  return IC_OK;
}

ic_status ic_dpsroi_parse(ic_attr_reader *r, void *attrs) {
  ic_dpsroi_attrs *a = attrs;
  a->no_trans = ic_ar_bool(r, "no_trans", false);
  a->scale = (float)ic_ar_float(r, "spatial_scale", 1.0);
  a->trans_std = (float)ic_ar_float(r, "trans_std", 0.1);
  a->output_dim = ic_ar_int_req(r, "output_dim");
  a->ph = ic_ar_int_req(r, "pooled_height");
  a->pw = ic_ar_int_req(r, "pooled_width");
  a->spp = ic_ar_int(r, "sample_per_part", 1);
  if (r->st || read2(r, "group_size", &a->group_h, &a->group_w) ||
      read2(r, "part_size", &a->part_h, &a->part_w)) {
    return r->st;
  }
  if (a->output_dim < 1) return ic_ar_fail(r, "output_dim", "is %lld, expected >= 1", (long long)a->output_dim);
  if (a->ph < 1) return ic_ar_fail(r, "pooled_height", "is %lld, expected >= 1", (long long)a->ph);
  if (a->pw < 1) return ic_ar_fail(r, "pooled_width", "is %lld, expected >= 1", (long long)a->pw);
  if (a->spp < 1) {
    return ic_ar_fail(r, "sample_per_part", "is %lld, expected >= 1", (long long)a->spp);
  }
  if (!(a->scale > 0)) return ic_ar_fail(r, "spatial_scale", "is %g, expected > 0", a->scale);
  if (!(a->trans_std >= 0)) return ic_ar_fail(r, "trans_std", "is %g, expected >= 0", a->trans_std);
  return IC_OK;
}

ic_status ic_dpsroi_check(ic_kctx *c, int64_t *num_classes, int64_t *per_class) {
  const ic_dpsroi_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_DPSROI_INPUT, 0), *rois = ic_in(c, IC_DPSROI_ROIS, 0);
  const ic_tensor *tr = ic_in(c, IC_DPSROI_TRANS, 0);
  ic_status st = ic_kcheck_dtype(c, IC_DPSROI_INPUT, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, IC_DPSROI_INPUT, 0, "expected rank 4 [N, C, H, W]");
  const int64_t need = a->output_dim * a->group_h * a->group_w;
  if (x->dims[1] < need) {
    return ic_kfail_in(c, IC_DPSROI_INPUT, 0, "has %lld channels, expected at least output_dim x "
                       "group_size = %lld", (long long)x->dims[1], (long long)need);
  }
  if (rois->dtype != x->dtype || rois->ndim != 2 || rois->dims[1] != 4) {
    return ic_kfail_in(c, IC_DPSROI_ROIS, 0, "expected %s[R, 4] boxes", ic_dtype_name(x->dtype));
  }
  size_t ns;
  const uint64_t *off = ic_kseq(c, IC_DPSROI_ROIS, 0, 0, &ns);
  if (!off) return c->err->code;
  if (off[ns] != (uint64_t)rois->dims[0]) {
    return ic_kfail_in(c, IC_DPSROI_ROIS, 0, "has a LoD of %llu rows but holds %lld",
                       (unsigned long long)off[ns], (long long)rois->dims[0]);
  }
  if ((int64_t)ns > x->dims[0]) {
    return ic_kfail_in(c, IC_DPSROI_ROIS, 0, "has a LoD of %zu images, but Input has %lld", ns,
                       (long long)x->dims[0]);
  }
  if (tr->dtype != x->dtype || tr->ndim != 4) {
    return ic_kfail_in(c, IC_DPSROI_TRANS, 0, "expected %s of rank 4 [R, 2 * classes, "
                       "part_height, part_width]", ic_dtype_name(x->dtype));
  }
  *num_classes = a->no_trans ? 1 : tr->dims[1] / 2;
  if (!a->no_trans) {
    const int64_t want[4] = {rois->dims[0], tr->dims[1], a->part_h, a->part_w};
    if (tr->dims[1] < 2 || tr->dims[1] % 2 || !ic_dims_equal(4, tr->dims, 4, want)) {
      char d[128];
      return ic_kfail_in(c, IC_DPSROI_TRANS, 0, "expected dims %s with an even channel count "
                         "(2 per class; part_size %lld x %lld)", ic_dims_str(4, want, d, sizeof d),
                         (long long)a->part_h, (long long)a->part_w);
    }
  }
  *per_class = a->no_trans ? a->output_dim : a->output_dim / *num_classes;
  if (*per_class < 1 || (a->output_dim - 1) / *per_class >= *num_classes) {
    return ic_kfail_in(c, IC_DPSROI_TRANS, 0, "has %lld classes, which do not split output_dim "
                       "%lld into whole classes", (long long)*num_classes,
                       (long long)a->output_dim);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_dpsroi_attrs *a = c->attrs;
  int64_t nc, pc;
  ic_status st = ic_dpsroi_check(c, &nc, &pc);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_DPSROI_INPUT, 0);
  size_t ns;
  if (!ic_kseq(c, IC_DPSROI_ROIS, 0, 0, &ns)) return c->err->code;
  if ((int64_t)ns != x->dims[0]) { /* Paddle's forward wants one sequence per image */
    return ic_kfail_in(c, IC_DPSROI_ROIS, 0, "has a LoD of %zu images, but Input has %lld", ns,
                       (long long)x->dims[0]);
  }
  const int64_t d[4] = {ic_in(c, IC_DPSROI_ROIS, 0)->dims[0], a->output_dim, a->ph, a->pw};
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, d);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, 4, d);
  return IC_OK;
}

#define DEFINE_FWD(T, ROUND, FLOOR, CEIL)                                                     \
  IC_DPSROI_BIN(T, ROUND, FLOOR)                                                            \
  static void fwd_##T(const ic_dpsroi_attrs *a, const T *xd, const T *rois, const T *trans, \
                      const int64_t *batch, int64_t R, int64_t C, int64_t H, int64_t W,     \
                      int64_t nc, int64_t pc, T *out, T *cnt) {                             \
    int64_t ix = 0;                                                                         \
    for (int64_t n = 0; n < R; n++)                                                         \
      for (int64_t ctop = 0; ctop < a->output_dim; ctop++)                                  \
        for (int64_t py = 0; py < a->ph; py++)                                              \
          for (int64_t px = 0; px < a->pw; px++, ix++) {                                    \
            dpsroi_bin_##T b;                                                               \
            dpsroi_bin_##T##_of(a, rois + n * 4, trans, n, ctop, py, px, nc, pc, a->part_w, \
                                &b);                                                        \
            const T *img = xd + (batch[n] * C + b.chan) * H * W;                            \
            T sum = 0;                                                                      \
            int64_t ns = 0;                                                                 \
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
                const int64_t x1 = (int64_t)FLOOR(w), x2 = (int64_t)CEIL(w);                \
                const int64_t y1 = (int64_t)FLOOR(h), y2 = (int64_t)CEIL(h);                \
                const T dx = w - (T)x1, dy = h - (T)y1;                                     \
                const T v = ((T)1 - dx) * ((T)1 - dy) * img[y1 * W + x1] +                  \
                            ((T)1 - dx) * dy * img[y2 * W + x1] +                           \
                            dx * ((T)1 - dy) * img[y1 * W + x2] + dx * dy * img[y2 * W + x2]; \
                sum += v;                                                                   \
                ns++;                                                                       \
              }                                                                             \
            }                                                                               \
            out[ix] = ns == 0 ? (T)0 : sum / (T)ns;                                         \
            if (cnt) cnt[ix] = (T)ns;                                                       \
          }                                                                                 \
  }
DEFINE_FWD(float, roundf, floorf, ceilf)
DEFINE_FWD(double, round, floor, ceil)

/* batch[r] = the image of region r, from ROIs' LoD. */
static void batch_of(ic_kctx *c, int64_t *batch) {
  size_t ns;
  const uint64_t *off = ic_kseq(c, IC_DPSROI_ROIS, 0, 0, &ns);
  for (size_t i = 0; i < ns; i++) {
    for (uint64_t r = off[i]; r < off[i + 1]; r++) batch[r] = (int64_t)i;
  }
}

static ic_status run(ic_kctx *c) {
  const ic_dpsroi_attrs *a = c->attrs;
  int64_t nc, pc;
  ic_status st = ic_dpsroi_check(c, &nc, &pc);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_DPSROI_INPUT, 0), *rois = ic_in(c, IC_DPSROI_ROIS, 0);
  const ic_tensor *tr = ic_in(c, IC_DPSROI_TRANS, 0);
  ic_tensor *out = ic_out(c, 0, 0), *cnt = ic_out(c, 1, 0);
  const int64_t R = rois->dims[0];
  if (R == 0) return IC_OK;
  int64_t *batch = malloc((size_t)R * sizeof *batch);
  if (!batch) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  batch_of(c, batch);
  if (x->dtype == IC_FP32) {
    fwd_float(a, x->data, rois->data, tr->data, batch, R, x->dims[1], x->dims[2], x->dims[3], nc,
              pc, out->data, cnt ? cnt->data : NULL);
  } else {
    fwd_double(a, x->data, rois->data, tr->data, batch, R, x->dims[1], x->dims[2], x->dims[3],
               nc, pc, out->data, cnt ? cnt->data : NULL);
  }
  free(batch);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}, {"ROIs", 0}, {"Trans", 0}};
static const ic_slotdef outputs[] = {{"Output", 0}, {"TopCount", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_deformable_psroi_pooling = {
    .name = "deformable_psroi_pooling",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ic_dpsroi_attrs), .parse = ic_dpsroi_parse,
    .infer = infer, .cpu = run,
};
