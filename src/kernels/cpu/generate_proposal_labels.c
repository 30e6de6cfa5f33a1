/* generate_proposal_labels: Faster / Mask / Cascade R-CNN's second-stage training samples
 * (paddle/fluid/operators/detection/generate_proposal_labels_op.cc, Paddle 2.6; IoU and box
 * deltas of bbox_util.h). RpnRois [R, 4], GtClasses (int32, K values), IsCrowd (int32, K
 * values), GtBoxes [K, 4], each split into N images by one LoD level, ImInfo [N, 3] (height,
 * width, scale), with is_cascade_rcnn MaxOverlap (R values, RpnRois' split); boxes
 * [x1, y1, x2, y2] in RpnRois' dtype (float32 or float64, computed in that precision).
 * Per image with RpnRois rows (an image without any contributes no rows):
 *   1. the rois divided by the image's scale; with is_cascade_rcnn only those with positive
 *      pixel sides (x2 - x1 + 1 > 0, y2 - y1 + 1 > 0) and MaxOverlap < 1 (none left: one
 *      all-zero box);
 *   2. boxes = the image's ground truths (unscaled), then those rois; the IoU (pixel sides,
 *      0 for an empty intersection) of each box with each truth, and each box's max;
 *   3. a box is fg when its max (-1 for a crowd truth's own row) is >= fg_thresh, mapped to the
 *      first truth within 1e-5 of the max; else bg when bg_thresh_lo <= max < bg_thresh_hi;
 *   4. unless is_cascade_rcnn: fg cut to min(floor(batch_size_per_im * fg_fraction), count)
 *      and bg to min(batch_size_per_im - kept fg, count), by Paddle's reservoir pass when
 *      use_random (the bg pass swaps only into the first (kept fg) places, as Paddle's does),
 *      else keeping the first;
 *   5. Rois = the fg boxes then the bg boxes, times the scale; LabelsInt32 = the mapped truths'
 *      classes, then 0; MaxOverlapWithGT = their max IoU; BboxTargets / BboxInsideWeights /
 *      BboxOutsideWeights [., 4 * class_nums] zero but for the 4 columns of the row's class
 *      (class 1 when is_cls_agnostic), if > 0: the deltas from the box to its truth (centre
 *      offsets over the box's sides, log side ratios, pixel sides) divided by
 *      bbox_reg_weights, and weights 1.
 * Every output has a LoD splitting its rows per image. Paddle refuses an image without ground
 * truth (an empty slice); so does icore, and a class >= class_nums (Paddle writes past the
 * row).
 *
 * Randomness: Paddle seeds std::minstd_rand from std::random_device on every run; icore draws
 * from a Philox stream per image (randutil.h) under the executor's seed and the op's position,
 * so a program and seed give the same samples. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/randutil.h"
#include "kernels/kernel.h"

enum { IN_ROIS, IN_CLS, IN_CROWD, IN_GT, IN_INFO, IN_MAXOV };
enum { OUT_ROIS, OUT_LBL, OUT_TGT, OUT_IW, OUT_OW, OUT_MAXOV };

typedef struct gpl_attrs {
  int64_t batch, class_nums;
  float fg_fraction, fg_thresh, bg_hi, bg_lo, w[4];
  bool use_random, cascade, agnostic;
} gpl_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gpl_attrs *a = attrs;
  a->batch = ic_ar_int_req(r, "batch_size_per_im");
  a->fg_fraction = (float)ic_ar_float_req(r, "fg_fraction");
  a->fg_thresh = (float)ic_ar_float_req(r, "fg_thresh");
  a->bg_hi = (float)ic_ar_float_req(r, "bg_thresh_hi");
  a->bg_lo = (float)ic_ar_float_req(r, "bg_thresh_lo");
  a->class_nums = ic_ar_int_req(r, "class_nums");
  a->use_random = ic_ar_bool(r, "use_random", true);
  a->cascade = ic_ar_bool(r, "is_cascade_rcnn", false);
  a->agnostic = ic_ar_bool(r, "is_cls_agnostic", false);
  const double *w;
  size_t nw;
  if (!ic_ar_floats(r, "bbox_reg_weights", true, &w, &nw)) return r->st;
  if (r->st) return r->st;
  if (nw != 4) return ic_ar_fail(r, "bbox_reg_weights", "has %zu values, expected 4", nw);
  for (int k = 0; k < 4; k++) a->w[k] = (float)w[k];
  if (a->class_nums < 1) {
    return ic_ar_fail(r, "class_nums", "is %lld, expected >= 1", (long long)a->class_nums);
  }
  if (a->batch < 0) {
    return ic_ar_fail(r, "batch_size_per_im", "is %lld, expected >= 0", (long long)a->batch);
  }
  return IC_OK;
}

/* Input s: int32 / T values, one per row of input `like`, with its LoD. */
static ic_status check_split(ic_kctx *c, size_t s, size_t like, uint64_t dtmask) {
  const ic_tensor *t = ic_in(c, s, 0), *l = ic_in(c, like, 0);
  if (ic_kcheck_dtype(c, s, 0, dtmask)) return c->err->code;
  if (t->ndim < 1 || t->dims[0] != l->dims[0] || ic_tensor_numel_(t) != l->dims[0]) {
    return ic_kfail_in(c, s, 0, "expected %lld values, one per row of %s",
                       (long long)l->dims[0], c->def->inputs[like].name);
  }
  return IC_OK;
}

static const uint64_t *lod1(ic_kctx *c, size_t s, size_t *n) {
  const uint64_t *l = ic_kseq(c, s, 0, 0, n);
  if (l && ic_in(c, s, 0)->lod->n_levels != 1) {
    ic_kfail_in(c, s, 0, "has %zu LoD levels, expected 1", ic_in(c, s, 0)->lod->n_levels);
    return NULL;
  }
  return l;
}

static ic_status infer(ic_kctx *c) {
  const gpl_attrs *a = c->attrs;
  const ic_tensor *ro = ic_in(c, IN_ROIS, 0), *gt = ic_in(c, IN_GT, 0), *im = ic_in(c, IN_INFO, 0);
  if (ic_kcheck_dtype(c, IN_ROIS, 0, IC_DT_FLOAT)) return c->err->code;
  if (ro->ndim != 2 || ro->dims[1] != 4) return ic_kfail_in(c, IN_ROIS, 0, "expected [R, 4]");
  if (gt->dtype != ro->dtype || gt->ndim != 2 || gt->dims[1] != 4) {
    return ic_kfail_in(c, IN_GT, 0, "expected [K, 4] in RpnRois' dtype");
  }
  size_t n, m;
  if (!lod1(c, IN_ROIS, &n)) return c->err->code;
  const uint64_t *gl = lod1(c, IN_GT, &m);
  if (!gl) return c->err->code;
  if (m != n) return ic_kfail_in(c, IN_GT, 0, "splits into %zu images, RpnRois into %zu", m, n);
  for (size_t s = IN_CLS; s <= IN_CROWD; s++) {
    if (check_split(c, s, IN_GT, IC_DT(IC_INT32))) return c->err->code;
    size_t k;
    const uint64_t *l = lod1(c, s, &k);
    if (!l) return c->err->code;
    if (k != n || memcmp(l, gl, (n + 1) * sizeof *l)) {
      return ic_kfail_in(c, s, 0, "has a LoD other than GtBoxes' (one value per ground truth)");
    }
  }
  if (im->dtype != ro->dtype || im->ndim != 2 || im->dims[1] != 3 || im->dims[0] < (int64_t)n) {
    return ic_kfail_in(c, IN_INFO, 0, "expected [%zu, 3] (height, width, scale) in RpnRois' "
                       "dtype", n);
  }
  if (a->cascade) {
    if (!ic_in(c, IN_MAXOV, 0)) {
      return ic_kfail(c, IC_ERR_SHAPE, "input MaxOverlap is required with is_cascade_rcnn");
    }
    if (check_split(c, IN_MAXOV, IN_ROIS, IC_DT(ro->dtype))) return c->err->code;
  }
  const int64_t W = 4 * a->class_nums;
  ic_tensor_set_meta(ic_out(c, OUT_ROIS, 0), ro->dtype, 2, (int64_t[]){0, 4});
  ic_tensor_set_meta(ic_out(c, OUT_LBL, 0), IC_INT32, 2, (int64_t[]){0, 1});
  for (size_t k = OUT_TGT; k <= OUT_OW; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), ro->dtype, 2, (int64_t[]){0, W});
  }
  if (ic_out(c, OUT_MAXOV, 0)) ic_tensor_set_meta(ic_out(c, OUT_MAXOV, 0), ro->dtype, 1, (int64_t[]){0});
  return IC_OK;
}

/* Work space and results. */
typedef struct gpl_work {
  void *boxes, *maxov, *res_rois, *res_tgt, *res_mo; /* the dtype's values */
  int32_t *fg, *fgt, *bg, *res_lbl;
  int64_t nres;
  uint64_t *lod;
} gpl_work;

static void swap32(int32_t *v, int64_t i, int64_t j) {
  const int32_t t = v[i];
  v[i] = v[j];
  v[j] = t;
}

/* One image: R rois, K truths. Fails (returns the bad class) only on a class out of range. */
#define GPL_IMAGE(T, NAME, LOG)                                                                \
  static int64_t NAME(const gpl_attrs *a, const T *rois, int64_t R, const T *mo_in,           \
                      const int32_t *cls, const int32_t *crowd, const T *gt, int64_t K,       \
                      const T *im, gpl_work *w, uint64_t key, int64_t img) {                   \
    const T S = im[2];                                                                         \
    T *bx = w->boxes, *mo = w->maxov;                                                          \
    memcpy(bx, gt, (size_t)K * 4 * sizeof(T));                                                 \
    int64_t P = K;                                                                             \
    for (int64_t r = 0; r < R; r++) {                                                          \
      T b[4];                                                                                  \
      for (int q = 0; q < 4; q++) b[q] = rois[r * 4 + q] / S;                                  \
      if (a->cascade && !(b[2] - b[0] + 1 > 0 && b[3] - b[1] + 1 > 0 && mo_in[r] < 1)) {       \
        continue;                                                                              \
      }                                                                                        \
      memcpy(bx + P * 4, b, sizeof b);                                                         \
      P++;                                                                                     \
    }                                                                                          \
    if (a->cascade && P == K) {                                                                \
      memset(bx + P * 4, 0, 4 * sizeof(T));                                                    \
      P++;                                                                                     \
    }                                                                                          \
    int64_t nfg = 0, nbg = 0;                                                                  \
    for (int64_t i = 0; i < P; i++) {                                                          \
      const T *r = bx + i * 4;                                                                 \
      const T ra = (r[2] - r[0] + 1) * (r[3] - r[1] + 1);                                      \
      T best = 0;                                                                              \
      for (int64_t j = 0; j < K; j++) {                                                        \
        const T *q = gt + j * 4;                                                               \
        const T ca = (q[2] - q[0] + 1) * (q[3] - q[1] + 1);                                    \
        const T x0 = r[0] > q[0] ? r[0] : q[0], y0 = r[1] > q[1] ? r[1] : q[1];                \
        const T x1 = r[2] < q[2] ? r[2] : q[2], y1 = r[3] < q[3] ? r[3] : q[3];                \
        T iw = x1 - x0 + 1, ih = y1 - y0 + 1;                                                  \
        if (iw < 0) iw = 0;                                                                    \
        if (ih < 0) ih = 0;                                                                    \
        const T inter = iw * ih;                                                               \
        const T v = inter == 0 ? (T)0 : inter / (ra + ca - inter);                             \
        if (j == 0 || v > best) best = v;                                              \
      }                                                                                        \
      mo[i] = best;                                                                            \
    }                                                                                          \
    /* the first truth within 1e-5 of the max (a second pass, as Paddle's) */                  \
    for (int64_t i = 0; i < P; i++) {                                                          \
      T m = mo[i];                                                                             \
      if (i < K && crowd[i]) m = -1;                                                           \
      if (m >= (T)a->fg_thresh) {                                                              \
        const T *r = bx + i * 4;                                                               \
        const T ra = (r[2] - r[0] + 1) * (r[3] - r[1] + 1);                                    \
        for (int64_t j = 0; j < K; j++) {                                                      \
          const T *q = gt + j * 4;                                                             \
          const T ca = (q[2] - q[0] + 1) * (q[3] - q[1] + 1);                                  \
          const T x0 = r[0] > q[0] ? r[0] : q[0], y0 = r[1] > q[1] ? r[1] : q[1];              \
          const T x1 = r[2] < q[2] ? r[2] : q[2], y1 = r[3] < q[3] ? r[3] : q[3];              \
          T iw = x1 - x0 + 1, ih = y1 - y0 + 1;                                                \
          if (iw < 0) iw = 0;                                                                  \
          if (ih < 0) ih = 0;                                                                  \
          const T inter = iw * ih;                                                             \
          const T v = inter == 0 ? (T)0 : inter / (ra + ca - inter);                           \
          T d = m - v;                                                                         \
          if (d < 0) d = -d;                                                                   \
          if (d < (T)0.00001f) {                                                               \
            w->fg[nfg] = (int32_t)i;                                                           \
            w->fgt[nfg++] = (int32_t)j;                                                        \
            break;                                                                             \
          }                                                                                    \
        }                                                                                      \
      } else if (m >= (T)a->bg_lo && m < (T)a->bg_hi) {                                        \
        w->bg[nbg++] = (int32_t)i;                                                             \
      }                                                                                        \
    }                                                                                          \
    if (!a->cascade) {                                                                         \
      ic_rstream rs = ic_rstream_at(key, (uint64_t)img);                                       \
      int64_t fper = (int64_t)floorf((float)a->batch * a->fg_fraction);                        \
      if (fper < 0) fper = 0;                                                                  \
      const int64_t fkeep = fper < nfg ? fper : nfg;                                           \
      if (a->use_random && nfg > fkeep) {                                                      \
        for (int64_t k = fkeep; k < nfg; k++) {                                                \
          const int64_t j = (int64_t)floor(ic_rstream_u53(&rs) * (double)k);                   \
          if (j < fkeep) swap32(w->fg, j, k), swap32(w->fgt, j, k);                            \
        }                                                                                      \
      }                                                                                        \
      int64_t bper = a->batch - fkeep;                                                         \
      if (bper < 0) bper = 0;                                                                  \
      const int64_t bkeep = bper < nbg ? bper : nbg;                                           \
      if (a->use_random && nbg > bkeep) {                                                      \
        for (int64_t k = bkeep; k < nbg; k++) {                                                \
          const int64_t j = (int64_t)floor(ic_rstream_u53(&rs) * (double)k);                   \
          if (j < fkeep) swap32(w->bg, j, k);                                                  \
        }                                                                                      \
      }                                                                                        \
      nfg = fkeep;                                                                             \
      nbg = bkeep;                                                                             \
    }                                                                                          \
    const int64_t C = 4 * a->class_nums;                                                       \
    T *orois = (T *)w->res_rois + w->nres * 4, *otgt = (T *)w->res_tgt + w->nres * C;          \
    T *omo = (T *)w->res_mo + w->nres;                                                         \
    int32_t *olbl = w->res_lbl + w->nres;                                                      \
    for (int64_t k = 0; k < nfg + nbg; k++) {                                                  \
      const int64_t i = k < nfg ? w->fg[k] : w->bg[k - nfg];                                   \
      const T *e = bx + i * 4;                                                                 \
      for (int q = 0; q < 4; q++) orois[k * 4 + q] = e[q] * S;                                 \
      omo[k] = mo[i];                                                                          \
      int32_t label = k < nfg ? cls[w->fgt[k]] : 0;                                            \
      olbl[k] = label;                                                                         \
      if (label <= 0) continue;                                                                \
      if (a->agnostic) label = 1;                                                              \
      if (label >= a->class_nums) return label;                                                \
      const T *g = gt + (int64_t)w->fgt[k] * 4;                                                \
      const T ew = e[2] - e[0] + 1, eh = e[3] - e[1] + 1;                                      \
      const T ex = e[0] + (T)0.5 * ew, ey = e[1] + (T)0.5 * eh;                                \
      const T gw = g[2] - g[0] + 1, gh = g[3] - g[1] + 1;                                      \
      const T gx = g[0] + (T)0.5 * gw, gy = g[1] + (T)0.5 * gh;                                \
      T *d = otgt + k * C + 4 * label;                                                         \
      d[0] = (gx - ex) / ew / (T)a->w[0];                                                      \
      d[1] = (gy - ey) / eh / (T)a->w[1];                                                      \
      d[2] = LOG(gw / ew) / (T)a->w[2];                                                        \
      d[3] = LOG(gh / eh) / (T)a->w[3];                                                        \
    }                                                                                          \
    w->nres += nfg + nbg;                                                                      \
    return -1;                                                                                 \
  }

GPL_IMAGE(float, image_f32, logf)
GPL_IMAGE(double, image_f64, log)

static ic_status run(ic_kctx *c) {
  const gpl_attrs *a = c->attrs;
  const ic_tensor *ro = ic_in(c, IN_ROIS, 0), *gt = ic_in(c, IN_GT, 0), *im = ic_in(c, IN_INFO, 0);
  const ic_tensor *cl = ic_in(c, IN_CLS, 0), *cr = ic_in(c, IN_CROWD, 0);
  const ic_tensor *mi = a->cascade ? ic_in(c, IN_MAXOV, 0) : NULL;
  size_t n, m;
  const uint64_t *rl = ic_kseq(c, IN_ROIS, 0, 0, &n), *gl = ic_kseq(c, IN_GT, 0, 0, &m);
  if (!rl || !gl) return c->err->code;
  int64_t maxP = 1, total = 0;
  for (size_t i = 0; i < n; i++) {
    const int64_t R = (int64_t)(rl[i + 1] - rl[i]), K = (int64_t)(gl[i + 1] - gl[i]);
    if (R == 0) continue;
    if (K == 0) {
      return ic_kfail_in(c, IN_GT, 0, "has no ground truth for image %zu (Paddle cannot slice "
                         "an empty image), expected at least one", i);
    }
    if (R + K + 1 > maxP) maxP = R + K + 1;
    total += R + K + 1;
  }
  const int64_t C = 4 * a->class_nums;
  const size_t es = ic_dtype_size(ro->dtype);
  const size_t bytes = (size_t)maxP * (4 * es + es + 12) + (size_t)total * ((4 + 1 + (size_t)C) * es + 4) +
                       ((size_t)n + 1) * 8 + 64;
  ic_buffer *buf = ic_kscratch(c, bytes);
  if (!buf) return c->err->code;
  memset(buf->data, 0, bytes);
  char *p = buf->data;
#define TAKE(ptr, size)                                   \
  do {                                                    \
    p = (char *)(((uintptr_t)p + 7) & ~(uintptr_t)7);     \
    ptr = (void *)p;                                      \
    p += (size);                                          \
  } while (0)
  gpl_work w = {0};
  TAKE(w.lod, ((size_t)n + 1) * 8);
  TAKE(w.boxes, (size_t)maxP * 4 * es);
  TAKE(w.maxov, (size_t)maxP * es);
  TAKE(w.fg, (size_t)maxP * 4);
  TAKE(w.fgt, (size_t)maxP * 4);
  TAKE(w.bg, (size_t)maxP * 4);
  TAKE(w.res_rois, (size_t)total * 4 * es);
  TAKE(w.res_tgt, (size_t)total * (size_t)C * es);
  TAKE(w.res_mo, (size_t)total * es);
  TAKE(w.res_lbl, (size_t)total * 4);
#undef TAKE
  const uint64_t key = ic_philox_key(0, c->env->seed, c->op_key);
  const int32_t *cls = cl->data, *crowd = cr->data;
  ic_status st = IC_OK;
  w.lod[0] = 0;
  for (size_t i = 0; i < n && !st; i++) {
    const int64_t r0 = (int64_t)rl[i], R = (int64_t)rl[i + 1] - r0;
    const int64_t g0 = (int64_t)gl[i], K = (int64_t)gl[i + 1] - g0;
    if (R > 0) {
      int64_t bad;
      if (ro->dtype == IC_FP32) {
        bad = image_f32(a, (const float *)ro->data + r0 * 4, R,
                        mi ? (const float *)mi->data + r0 : NULL, cls + g0, crowd + g0,
                        (const float *)gt->data + g0 * 4, K, (const float *)im->data + i * 3,
                        &w, key, (int64_t)i);
      } else {
        bad = image_f64(a, (const double *)ro->data + r0 * 4, R,
                        mi ? (const double *)mi->data + r0 : NULL, cls + g0, crowd + g0,
                        (const double *)gt->data + g0 * 4, K, (const double *)im->data + i * 3,
                        &w, key, (int64_t)i);
      }
      if (bad >= 0) {
        st = ic_kfail_in(c, IN_CLS, 0, "holds class %lld in image %zu, expected < class_nums "
                         "(%lld)", (long long)bad, i, (long long)a->class_nums);
      }
    }
    w.lod[i + 1] = (uint64_t)w.nres;
  }
  const int64_t P = w.nres;
  if (!st) st = ic_kalloc_out(c, OUT_ROIS, 0, ro->dtype, 2, (int64_t[]){P, 4});
  if (!st) st = ic_kalloc_out(c, OUT_LBL, 0, IC_INT32, 2, (int64_t[]){P, 1});
  for (size_t k = OUT_TGT; !st && k <= OUT_OW; k++) {
    st = ic_kalloc_out(c, k, 0, ro->dtype, 2, (int64_t[]){P, C});
  }
  if (!st) st = ic_kalloc_out(c, OUT_MAXOV, 0, ro->dtype, 1, (int64_t[]){P});
  if (!st) {
    memcpy(ic_out(c, OUT_ROIS, 0)->data, w.res_rois, (size_t)P * 4 * es);
    memcpy(ic_out(c, OUT_LBL, 0)->data, w.res_lbl, (size_t)P * 4);
    memcpy(ic_out(c, OUT_TGT, 0)->data, w.res_tgt, (size_t)(P * C) * es);
    const int32_t *lbl = w.res_lbl;
    for (size_t k = OUT_IW; k <= OUT_OW; k++) {
      ic_tensor *o = ic_out(c, k, 0);
      memset(o->data, 0, (size_t)(P * C) * es);
      for (int64_t r = 0; r < P; r++) {
        if (lbl[r] <= 0) continue;
        const int64_t at = r * C + 4 * (a->agnostic ? 1 : lbl[r]);
        for (int q = 0; q < 4; q++) {
          if (ro->dtype == IC_FP32) ((float *)o->data)[at + q] = 1.0f;
          else ((double *)o->data)[at + q] = 1.0;
        }
      }
    }
    if (ic_out(c, OUT_MAXOV, 0)) memcpy(ic_out(c, OUT_MAXOV, 0)->data, w.res_mo, (size_t)P * es);
  }
  for (size_t k = OUT_ROIS; !st && k <= OUT_MAXOV; k++) {
    if (!ic_out(c, k, 0)) continue;
    const size_t len = n + 1;
    ic_lod *lod = ic_lod_new(1, &len);
    if (lod) memcpy(lod->offsets[0], w.lod, len * sizeof *w.lod);
    st = ic_kset_lod(c, ic_out(c, k, 0), lod, true);
  }
  ic_buffer_release(buf);
  return st;
}

static const ic_slotdef inputs[] = {{"RpnRois", 0}, {"GtClasses", 0}, {"IsCrowd", 0},
                                    {"GtBoxes", 0}, {"ImInfo", 0},
                                    {"MaxOverlap", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {
    {"Rois", IC_SLOT_DYNAMIC},
    {"LabelsInt32", IC_SLOT_DYNAMIC},
    {"BboxTargets", IC_SLOT_DYNAMIC},
    {"BboxInsideWeights", IC_SLOT_DYNAMIC},
    {"BboxOutsideWeights", IC_SLOT_DYNAMIC},
    {"MaxOverlapWithGT", IC_SLOT_DYNAMIC | IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_generate_proposal_labels = {
    .name = "generate_proposal_labels",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 6, .outputs = outputs,
    .attrs_size = sizeof(gpl_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD | IC_OP_RANDOM,
};
