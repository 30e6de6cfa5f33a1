/* roi_align: average of bilinear samples over each bin of each region of interest (Mask
 * R-CNN's RoIAlign; paddle/phi/kernels/cpu/roi_align_kernel.cc, RoiAlignInferMeta).
 *
 * X is [N, C, H, W], ROIs [R, 4] boxes (x0, y0, x1, y1) in input-image coordinates, Out
 * [R, C, pooled_height, pooled_width]. Region r belongs to the image given by RoisNum (int32
 * or int64 counts per image, which must have N entries), else by ROIs' LoD; icore also
 * accepts neither when N is 1. A box is scaled by spatial_scale and shifted by -0.5 when
 * `aligned`; without `aligned` its width and height are at least 1. Each bin is sampled on a
 * grid of sampling_ratio x sampling_ratio points (<= 0: ceil(size / pooled) points per
 * axis) at the centres of the grid cells; a point outside [-1, H] x [-1, W] counts as 0,
 * others are clamped to the map and interpolated bilinearly; the bin is the mean of its
 * points. Computed in X's precision, in Paddle's order. */
#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/detection.h"
#include "kernels/cpu/roi_align.h"

typedef ic_roi_align_attrs ra_attrs;

ic_status ic_roi_align_parse(ic_attr_reader *r, void *attrs) {
  ra_attrs *a = attrs;
  a->ph = ic_ar_int(r, "pooled_height", 1);
  a->pw = ic_ar_int(r, "pooled_width", 1);
  a->scale = (float)ic_ar_float(r, "spatial_scale", 1.0);
  a->sampling = ic_ar_int(r, "sampling_ratio", -1);
  a->aligned = ic_ar_bool(r, "aligned", false);
  if (r->st) return r->st;
  if (a->ph <= 0 || a->ph > INT32_MAX) {
    return ic_ar_fail(r, "pooled_height", "is %lld, expected > 0", (long long)a->ph);
  }
  if (a->pw <= 0 || a->pw > INT32_MAX) {
    return ic_ar_fail(r, "pooled_width", "is %lld, expected > 0", (long long)a->pw);
  }
  if (!(a->scale > 0)) return ic_ar_fail(r, "spatial_scale", "is %g, expected > 0", a->scale);
  return IC_OK;
}

enum { IN_X, IN_ROIS, IN_NUM };

ic_status ic_roi_align_check(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0), *num = ic_in(c, IN_NUM, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, IN_X, 0, "expected rank 4 (NCHW)");
  if (rois->dtype != x->dtype) return ic_kfail_in(c, IN_ROIS, 0, "expected X's dtype");
  if (rois->ndim != 2 || rois->dims[1] != 4) {
    return ic_kfail_in(c, IN_ROIS, 0, "expected [R, 4] boxes");
  }
  if (num) {
    st = ic_kcheck_dtype(c, IN_NUM, 0, IC_DT_INT);
    if (st) return st;
    if (num->ndim != 1 || num->dims[0] != x->dims[0]) {
      return ic_kfail_in(c, IN_NUM, 0, "expected [%lld] (one count per image of X)",
                         (long long)x->dims[0]);
    }
  } else if (!(rois->lod && rois->lod->n_levels) && x->dims[0] != 1) {
    return ic_kfail_in(c, IN_ROIS, 0,
                       "carries no LoD and there is no RoisNum: cannot tell which of X's %lld "
                       "images each region belongs to",
                       (long long)x->dims[0]);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ra_attrs *a = c->attrs;
  ic_status st = ic_roi_align_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4,
                     (int64_t[]){rois->dims[0], x->dims[1], a->ph, a->pw});
  return IC_OK;
}

/* One region: sample points (offsets and weights) for all bins, then the channels. */
#define DEFINE_ROI(name, T)                                                                       \
  static void name(const ra_attrs *a, const T *box, const T *img, int64_t C, int64_t H,          \
                   int64_t W, T *out, int64_t *off, T *wt) {                                      \
    const T roff = a->aligned ? (T)0.5 : (T)0;                                                    \
    const float sc = (float)a->scale;                                                             \
    T x0 = box[0] * sc - roff, y0 = box[1] * sc - roff, x1 = box[2] * sc - roff,                  \
      y1 = box[3] * sc - roff;                                                                    \
    T rw = x1 - x0, rh = y1 - y0;                                                                 \
    if (!a->aligned) {                                                                            \
      rw = rw > (T)1 ? rw : (T)1;                                                                 \
      rh = rh > (T)1 ? rh : (T)1;                                                                 \
    }                                                                                             \
    const int64_t ph = a->ph, pw = a->pw;                                                         \
    const T gh_ = a->sampling > 0 ? (T)a->sampling : (T)ceil(rh / (T)ph);                        \
    const T gw_ = a->sampling > 0 ? (T)a->sampling : (T)ceil(rw / (T)pw);                        \
    const int gh = gh_ > 0 ? (int)gh_ : 0, gw = gw_ > 0 ? (int)gw_ : 0; /* 0: NaN, as Paddle */  \
    const T bw = rw / (T)pw, bh = rh / (T)ph;                                                     \
    int64_t k = 0;                                                                                \
    for (int64_t py = 0; py < ph; py++) {                                                         \
      for (int64_t px = 0; px < pw; px++) {                                                       \
        for (int iy = 0; iy < gh; iy++) {                                                         \
          T y = y0 + bh * ((T)py + (T)(iy + .5f) / (T)gh);                                        \
          for (int ix = 0; ix < gw; ix++, k++) {                                                  \
            T x = x0 + bw * ((T)px + (T)(ix + .5f) / (T)gw);                                      \
            if (y < -1.0 || y > (T)H || x < -1.0 || x > (T)W) {                                   \
              for (int q = 0; q < 4; q++) off[4 * k + q] = 0, wt[4 * k + q] = 0;                  \
              continue;                                                                           \
            }                                                                                     \
            y = y <= 0 ? 0 : y;                                                                   \
            x = x <= 0 ? 0 : x;                                                                   \
            int64_t xl = (int64_t)x, xh, yl = (int64_t)y, yh;                                     \
            if (xl >= W - 1) xh = xl = W - 1, x = (T)xl;                                          \
            else xh = xl + 1;                                                                     \
            if (yl >= H - 1) yh = yl = H - 1, y = (T)yl;                                          \
            else yh = yl + 1;                                                                     \
            const T lx = (T)xh - x, ly = (T)yh - y;                                               \
            off[4 * k] = yl * W + xl, wt[4 * k] = lx * ly;                                        \
            off[4 * k + 1] = yl * W + xh, wt[4 * k + 1] = (1 - lx) * ly;                          \
            off[4 * k + 2] = yh * W + xl, wt[4 * k + 2] = lx * (1 - ly);                          \
            off[4 * k + 3] = yh * W + xh, wt[4 * k + 3] = (1 - lx) * (1 - ly);                    \
          }                                                                                       \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
    const int64_t pts = (int64_t)gh * gw;                                                         \
    const T count = (T)(1.0 / (double)pts);                                                       \
    for (int64_t ch = 0; ch < C; ch++) {                                                          \
      const T *d = img + ch * H * W;                                                              \
      for (int64_t b = 0; b < ph * pw; b++) {                                                     \
        T sum = 0;                                                                                \
        for (int64_t p = b * pts; p < (b + 1) * pts; p++) {                                       \
          sum += wt[4 * p] * d[off[4 * p]] + wt[4 * p + 1] * d[off[4 * p + 1]] +                  \
                 wt[4 * p + 2] * d[off[4 * p + 2]] + wt[4 * p + 3] * d[off[4 * p + 3]];           \
        }                                                                                         \
        out[ch * ph * pw + b] = sum * count;                                                      \
      }                                                                                           \
    }                                                                                             \
  }
DEFINE_ROI(roi_f32, float)
DEFINE_ROI(roi_f64, double)

ic_status ic_roi_align_batch(ic_kctx *c, int64_t *batch) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0), *num = ic_in(c, IN_NUM, 0);
  const int64_t N = x->dims[0], R = rois->dims[0];
  int64_t start = 0;
  const ic_lod *lod = rois->lod;
  const uint64_t *lo = !num && lod && lod->n_levels ? lod->offsets[lod->n_levels - 1] : NULL;
  if (lo && (int64_t)lod->lens[lod->n_levels - 1] - 1 != N) {
    return ic_kfail_in(c, IN_ROIS, 0, "has a LoD of %lld sequences, expected one per image (%lld)",
                       (long long)lod->lens[lod->n_levels - 1] - 1, (long long)N);
  }
  for (int64_t n = 0; n < N; n++) {
    int64_t cnt = num ? ic_read_i64(num, n) : lo ? (int64_t)(lo[n + 1] - lo[n]) : R;
    if (cnt < 0 || start + cnt > R) {
      return num ? ic_kfail_in(c, IN_NUM, 0,
                               "counts %lld regions up to image %lld, but ROIs has %lld",
                               (long long)(start + cnt), (long long)n, (long long)R)
                 : ic_kfail_in(c, IN_ROIS, 0, "has a LoD beyond its %lld rows", (long long)R);
    }
    for (int64_t i = start; i < start + cnt; i++) batch[i] = n;
    start += cnt;
  }
  if (start != R) {
    return num ? ic_kfail_in(c, IN_NUM, 0, "counts %lld regions, but ROIs has %lld",
                             (long long)start, (long long)R)
               : ic_kfail_in(c, IN_ROIS, 0, "has a LoD of %lld rows, but holds %lld",
                             (long long)start, (long long)R);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ra_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *rois = ic_in(c, IN_ROIS, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t C = x->dims[1], H = x->dims[2], W = x->dims[3], R = rois->dims[0];
  if (R == 0) return IC_OK;
  int64_t *batch = malloc((size_t)R * sizeof *batch);
  if (!batch) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  ic_status st = ic_roi_align_batch(c, batch);
  if (st) {
    free(batch);
    return st;
  }
  const bool f32 = x->dtype == IC_FP32;
  const size_t es = f32 ? sizeof(float) : sizeof(double);
  ic_buffer *scr = NULL;
  size_t cap = 0;
  for (int64_t r = 0; r < R && !st; r++) {
    /* sample count of this region, as the kernel will compute it */
    double rw, rh, s = (float)a->scale, ro = a->aligned ? 0.5 : 0;
    double bx[4];
    for (int q = 0; q < 4; q++) bx[q] = det_get(rois, r * 4 + q) * s - ro;
    rw = bx[2] - bx[0], rh = bx[3] - bx[1];
    if (!a->aligned) rw = rw > 1 ? rw : 1, rh = rh > 1 ? rh : 1;
    double gh = a->sampling > 0 ? (double)a->sampling : ceil(rh / (double)a->ph) + 1;
    double gw = a->sampling > 0 ? (double)a->sampling : ceil(rw / (double)a->pw) + 1;
    gh = gh > 0 ? gh : 0, gw = gw > 0 ? gw : 0; /* NaN and negative: no points */
    if (!(gh * gw * (double)(a->ph * a->pw) < 1e9)) {
      st = ic_kfail_in(c, IN_ROIS, 0, "region %lld is too large to sample (%g x %g points per bin)",
                       (long long)r, gh, gw);
      break;
    }
    size_t need = (size_t)(gh * gw * (double)(a->ph * a->pw)) * 4 * (sizeof(int64_t) + es) + 64;
    if (need > cap) {
      if (scr) ic_buffer_release(scr);
      scr = ic_kscratch(c, need);
      if (!scr) {
        st = c->err->code;
        break;
      }
      cap = need;
    }
    int64_t *off = scr->data;
    void *wt = (char *)scr->data + (need - 64) / (sizeof(int64_t) + es) * sizeof(int64_t);
    const int64_t plane = C * H * W, oplane = C * a->ph * a->pw;
    if (f32) {
      roi_f32(a, (const float *)rois->data + r * 4, (const float *)x->data + batch[r] * plane, C, H,
              W, (float *)out->data + r * oplane, off, wt);
    } else {
      roi_f64(a, (const double *)rois->data + r * 4, (const double *)x->data + batch[r] * plane, C,
              H, W, (double *)out->data + r * oplane, off, wt);
    }
  }
  if (scr) ic_buffer_release(scr);
  free(batch);
  return st;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"ROIs", 0}, {"RoisNum", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_roi_align = {
    .name = "roi_align",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ra_attrs), .parse = ic_roi_align_parse,
    .infer = infer, .cpu = run,
};
