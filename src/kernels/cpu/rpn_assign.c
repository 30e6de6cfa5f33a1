/* Anchor target assignment for training the RPN of Faster / Mask R-CNN (rpn_target_assign)
 * and RetinaNet's head (retinanet_target_assign), after paddle/fluid/operators/detection/
 * rpn_target_assign_op.cc (Paddle 2.6) and its helpers in bbox_util.h.
 *
 * Anchor [A, 4], GtBoxes [K, 4] split into N images by one LoD level, IsCrowd (int32, K values,
 * the same split), ImInfo [N, 3] (height, width, scale), all boxes [x1, y1, x2, y2] in the
 * dtype of Anchor (float32 or float64; the computation runs in that precision, as Paddle's).
 * retinanet_target_assign adds GtLabels (int32, K values, the same split). Per image:
 *   1. inside anchors: with rpn_straddle_thresh t >= 0 those with x1 >= -t, y1 >= -t,
 *      x2 < width + t, y2 < height + t; with t < 0 (always for retinanet) all of them;
 *   2. the image's non-crowd ground truths, multiplied by its scale;
 *   3. IoU with pixel sides (+1) of each inside anchor against each of them (0 when the
 *      intersection is empty), the max per anchor (with its first argmax) and per truth;
 *   4. fg candidates: in anchor order, anchors whose IoU with some truth is within 1e-5 of that
 *      truth's max, or whose max is >= positive overlap; with rpn_fg_fraction > 0 and
 *      rpn_batch_size_per_im > 0 they are cut to int(fraction * batch) by reservoir sampling
 *      (use_random) or by keeping the first; they are labelled 1;
 *   5. bg candidates: anchors whose max is < negative overlap, cut the same way (with the two
 *      attributes positive) to batch - (fg kept); each labelled 0, and a bg candidate that was
 *      labelled 1 adds a "fake" location entry: the first fg candidate with inside weights 0;
 *   6. LocationIndex = the fake entries, then the anchors still labelled 1 (anchor order);
 *      BBoxInsideWeight rows 0 for the fakes, 1 for the others; TargetBBox = the deltas
 *      (centre offsets over the anchor's sides, log side ratios; pixel sides) from each entry's
 *      anchor to its argmax truth; ScoreIndex = anchors labelled 1 then 0 (anchor order);
 *      TargetLabel 1 / 0 (retinanet: the argmax truth's label / 0); indices are into all
 *      N * A anchors (image i adds i * A). retinanet's ForegroundNumber [N, 1] holds the
 *      number of location entries + 1.
 * An image without (non-crowd) truths has no fg: every inside anchor is a bg candidate. The
 * outputs are int32 / the anchors' dtype, each with a LoD splitting its rows per image.
 *
 * Randomness: Paddle seeds std::minstd_rand from std::random_device on every run and hands
 * each sampling a copy of the engine, so its picks are not reproducible. icore samples with
 * its Philox streams (randutil.h) under the executor's seed and the op's position, the fg and
 * the bg sampling of image i each from its own stream: the same program and seed pick the
 * same anchors. The sampling itself is Paddle's reservoir pass: for k from the kept count m
 * up, j = floor(u * k) with u uniform in [0, 1), swapping k into j when j < m. */
#include "kernels/cpu/rpn_assign.h"

#include <math.h>
#include <string.h>

#include "kernels/cpu/randutil.h"

enum { OUT_LOC, OUT_SCORE, OUT_TBOX, OUT_TLBL, OUT_BIW, OUT_FGNUM };

typedef struct slots {
  size_t anchor, gt, labels, crowd, info;
} slots;

static slots slots_of(const rpn_assign_attrs *a) {
  return a->retina ? (slots){0, 1, 2, 3, 4} : (slots){0, 1, 99, 2, 3};
}

/* Per-image work space, sized for A anchors and G truths. */
typedef struct work {
  int32_t *inside, *argmax, *gid, *fgc, *bgc, *fgo, *fg, *bg;
  int8_t *label;
  void *gts, *ov, *amax, *gmax; /* the dtype's values */
} work;

/* Everything the images append to. */
typedef struct acc {
  int32_t *loc, *score, *lbl, *fgnum;
  void *tbox, *biw;
  int64_t nloc, nscore;
  uint64_t *loc_lod, *score_lod;
} acc;

/* Paddle's ReservoirSampling: keeps the first num of v[0, len) after the swaps (num < 0 or
 * len <= num: all of them). */
static int64_t reservoir(int32_t *v, int64_t len, int64_t num, bool rnd, uint64_t key,
                         uint64_t stream) {
  if (num < 0 || len <= num) return len;
  if (rnd) {
    ic_rstream s = ic_rstream_at(key, stream);
    for (int64_t k = num; k < len; k++) {
      const int64_t j = (int64_t)floor(ic_rstream_u53(&s) * (double)k);
      if (j < num) {
        const int32_t t = v[j];
        v[j] = v[k];
        v[k] = t;
      }
    }
  }
  return num;
}

#define RPN_IMAGE(T, NAME, LOG)                                                               \
  static void NAME(const rpn_assign_attrs *a, const T *anc, int64_t A, const T *gtb,         \
                   const int32_t *crowd, const int32_t *glab, int64_t K, const T *im,         \
                   work *w, uint64_t key, int64_t img, acc *o) {                              \
    const T H = im[0], W = im[1], S = im[2];                                                  \
    int64_t n_in = 0;                                                                         \
    for (int64_t k = 0; k < A; k++) {                                                         \
      const T *b = anc + k * 4;                                                               \
      const float t = a->straddle;                                                            \
      if (t < 0 || (b[0] >= -t && b[1] >= -t && b[2] < W + (T)t && b[3] < H + (T)t)) {        \
        w->inside[n_in++] = (int32_t)k;                                                       \
      }                                                                                       \
    }                                                                                         \
    T *gts = w->gts, *ov = w->ov, *amax = w->amax, *gmax = w->gmax;                           \
    int64_t G = 0;                                                                            \
    for (int64_t k = 0; k < K; k++) {                                                         \
      if (crowd[k] != 0) continue;                                                            \
      for (int q = 0; q < 4; q++) gts[G * 4 + q] = gtb[k * 4 + q] * S;                        \
      w->gid[G++] = (int32_t)k;                                                               \
    }                                                                                         \
    for (int64_t g = 0; g < G; g++) gmax[g] = -(T)INFINITY;                                   \
    for (int64_t i = 0; i < n_in; i++) {                                                      \
      const T *r = anc + (int64_t)w->inside[i] * 4;                                           \
      const T ra = (r[2] - r[0] + 1) * (r[3] - r[1] + 1);                                     \
      amax[i] = -(T)INFINITY;                                                                 \
      w->argmax[i] = 0;                                                                       \
      for (int64_t g = 0; g < G; g++) {                                                       \
        const T *q = gts + g * 4;                                                             \
        const T ca = (q[2] - q[0] + 1) * (q[3] - q[1] + 1);                                   \
        const T x0 = r[0] > q[0] ? r[0] : q[0], y0 = r[1] > q[1] ? r[1] : q[1];               \
        const T x1 = r[2] < q[2] ? r[2] : q[2], y1 = r[3] < q[3] ? r[3] : q[3];               \
        T iw = x1 - x0 + 1, ih = y1 - y0 + 1;                                                 \
        if (iw < 0) iw = 0;                                                                   \
        if (ih < 0) ih = 0;                                                                   \
        const T inter = iw * ih;                                                              \
        const T v = inter == 0 ? (T)0 : inter / (ra + ca - inter);                            \
        ov[i * G + g] = v;                                                                    \
        if (v > amax[i]) amax[i] = v, w->argmax[i] = (int32_t)g;                              \
        if (v > gmax[g]) gmax[g] = v;                                                         \
      }                                                                                       \
    }                                                                                         \
    /* 4. fg candidates */                                                                    \
    int64_t nfg = 0;                                                                          \
    for (int64_t i = 0; i < n_in; i++) {                                                      \
      bool is_max = false;                                                                    \
      for (int64_t g = 0; g < G && !is_max; g++) {                                            \
        T d = ov[i * G + g] - gmax[g];                                                        \
        if (d < 0) d = -d;                                                                    \
        is_max = d < (T)0.00001f;                                                             \
      }                                                                                       \
      if (is_max || amax[i] >= (T)a->pos) w->fgc[nfg++] = (int32_t)i;                         \
    }                                                                                         \
    const bool sample = a->fg_fraction > 0 && a->batch_per_im > 0;                            \
    if (sample) {                                                                             \
      const int64_t want = (int64_t)(int)(a->fg_fraction * (float)a->batch_per_im);           \
      nfg = reservoir(w->fgc, nfg, want, a->use_random, key, (uint64_t)img * 2);              \
    }                                                                                         \
    memset(w->label, -1, (size_t)n_in);                                                       \
    for (int64_t k = 0; k < nfg; k++) w->label[w->fgc[k]] = 1;                                \
    /* 5. bg candidates */                                                                    \
    int64_t nbg = 0;                                                                          \
    for (int64_t i = 0; i < n_in; i++) {                                                      \
      if (amax[i] < (T)a->neg) w->bgc[nbg++] = (int32_t)i;                                    \
    }                                                                                         \
    if (sample) {                                                                             \
      nbg = reservoir(w->bgc, nbg, a->batch_per_im - nfg, a->use_random, key,                 \
                      (uint64_t)img * 2 + 1);                                                 \
    }                                                                                         \
    int64_t nfo = 0, fake = 0;                                                                \
    for (int64_t k = 0; k < nbg; k++) {                                                       \
      if (w->label[w->bgc[k]] == 1) w->fgo[nfo++] = w->fgc[0], fake++;                        \
      w->label[w->bgc[k]] = 0;                                                                \
    }                                                                                         \
    int64_t nf = 0, nb = 0;                                                                   \
    for (int64_t i = 0; i < n_in; i++) {                                                      \
      if (w->label[i] == 1) w->fg[nf++] = (int32_t)i, w->fgo[nfo++] = (int32_t)i;             \
      else if (w->label[i] == 0) w->bg[nb++] = (int32_t)i;                                    \
    }                                                                                         \
    /* 6. outputs */                                                                          \
    T *tb = (T *)o->tbox + o->nloc * 4, *bw = (T *)o->biw + o->nloc * 4;                      \
    for (int64_t k = 0; k < nfo; k++) {                                                       \
      const int64_t ai = w->inside[w->fgo[k]];                                                \
      o->loc[o->nloc + k] = (int32_t)(ai + img * A);                                          \
      const T *e = anc + ai * 4, *g = gts + (int64_t)w->argmax[w->fgo[k]] * 4;                \
      const T ew = e[2] - e[0] + 1, eh = e[3] - e[1] + 1;                                     \
      const T ex = e[0] + (T)0.5 * ew, ey = e[1] + (T)0.5 * eh;                               \
      const T gw = g[2] - g[0] + 1, gh = g[3] - g[1] + 1;                                     \
      const T gx = g[0] + (T)0.5 * gw, gy = g[1] + (T)0.5 * gh;                               \
      tb[k * 4 + 0] = (gx - ex) / ew;                                                         \
      tb[k * 4 + 1] = (gy - ey) / eh;                                                         \
      tb[k * 4 + 2] = LOG(gw / ew);                                                           \
      tb[k * 4 + 3] = LOG(gh / eh);                                                           \
      for (int q = 0; q < 4; q++) bw[k * 4 + q] = k < fake ? (T)0 : (T)1;                     \
    }                                                                                         \
    for (int64_t k = 0; k < nf + nb; k++) {                                                   \
      const int64_t i = k < nf ? w->fg[k] : w->bg[k - nf];                                    \
      o->score[o->nscore + k] = (int32_t)(w->inside[i] + img * A);                            \
      o->lbl[o->nscore + k] = k >= nf ? 0 : glab ? glab[w->gid[w->argmax[i]]] : 1;            \
    }                                                                                         \
    if (o->fgnum) o->fgnum[img] = (int32_t)(nfo + 1);                                         \
    o->nloc += nfo;                                                                           \
    o->nscore += nf + nb;                                                                     \
    o->loc_lod[img + 1] = (uint64_t)o->nloc;                                                  \
    o->score_lod[img + 1] = (uint64_t)o->nscore;                                              \
  }

RPN_IMAGE(float, image_f32, logf)
RPN_IMAGE(double, image_f64, log)

/* Input s holds K values (int32) split like GtBoxes. */
static ic_status check_split(ic_kctx *c, size_t s, const uint64_t *glod, size_t n, int64_t K) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (ic_kcheck_dtype(c, s, 0, IC_DT(IC_INT32))) return c->err->code;
  if (t->ndim < 1 || t->dims[0] != K || ic_tensor_numel_(t) != K) {
    return ic_kfail_in(c, s, 0, "expected %lld values [%lld, 1], one per row of GtBoxes",
                       (long long)K, (long long)K);
  }
  size_t m;
  const uint64_t *l = ic_kseq(c, s, 0, 0, &m);
  if (!l) return c->err->code;
  if (t->lod->n_levels != 1) {
    return ic_kfail_in(c, s, 0, "has %zu LoD levels, expected 1", t->lod->n_levels);
  }
  if (m != n || memcmp(l, glod, (n + 1) * sizeof *l)) {
    return ic_kfail_in(c, s, 0, "has a LoD other than GtBoxes' (one value per ground truth)");
  }
  return IC_OK;
}

ic_status ic_rpn_assign_infer(ic_kctx *c) {
  const rpn_assign_attrs *a = c->attrs;
  const slots s = slots_of(a);
  const ic_tensor *an = ic_in(c, s.anchor, 0), *gt = ic_in(c, s.gt, 0), *im = ic_in(c, s.info, 0);
  if (ic_kcheck_dtype(c, s.anchor, 0, IC_DT_FLOAT)) return c->err->code;
  if (an->ndim != 2 || an->dims[1] != 4) return ic_kfail_in(c, s.anchor, 0, "expected [A, 4]");
  if (an->dims[0] > INT32_MAX / 4) return ic_kfail_in(c, s.anchor, 0, "has too many anchors");
  if (gt->dtype != an->dtype || gt->ndim != 2 || gt->dims[1] != 4) {
    return ic_kfail_in(c, s.gt, 0, "expected [K, 4] in Anchor's dtype");
  }
  if (im->dtype != an->dtype || im->ndim != 2 || im->dims[1] != 3) {
    return ic_kfail_in(c, s.info, 0, "expected [N, 3] (height, width, scale) in Anchor's dtype");
  }
  size_t n;
  const uint64_t *glod = ic_kseq(c, s.gt, 0, 0, &n);
  if (!glod) return c->err->code;
  if (gt->lod->n_levels != 1) {
    return ic_kfail_in(c, s.gt, 0, "has %zu LoD levels, expected 1", gt->lod->n_levels);
  }
  if (im->dims[0] < (int64_t)n) {
    return ic_kfail_in(c, s.info, 0, "has fewer rows than GtBoxes has images (%zu)", n);
  }
  if (check_split(c, s.crowd, glod, n, gt->dims[0])) return c->err->code;
  if (a->retina && check_split(c, s.labels, glod, n, gt->dims[0])) return c->err->code;
  ic_tensor_set_meta(ic_out(c, OUT_LOC, 0), IC_INT32, 1, (int64_t[]){0});
  ic_tensor_set_meta(ic_out(c, OUT_SCORE, 0), IC_INT32, 1, (int64_t[]){0});
  ic_tensor_set_meta(ic_out(c, OUT_TBOX, 0), an->dtype, 2, (int64_t[]){0, 4});
  ic_tensor_set_meta(ic_out(c, OUT_TLBL, 0), IC_INT32, 2, (int64_t[]){0, 1});
  ic_tensor_set_meta(ic_out(c, OUT_BIW, 0), an->dtype, 2, (int64_t[]){0, 4});
  if (a->retina) ic_tensor_set_meta(ic_out(c, OUT_FGNUM, 0), IC_INT32, 2, (int64_t[]){0, 1});
  return IC_OK;
}

static ic_status set_lod(ic_kctx *c, size_t slot, const uint64_t *offs, size_t n) {
  const size_t len = n + 1;
  ic_lod *lod = ic_lod_new(1, &len);
  if (lod) memcpy(lod->offsets[0], offs, len * sizeof *offs);
  return ic_kset_lod(c, ic_out(c, slot, 0), lod, true);
}

ic_status ic_rpn_assign_run(ic_kctx *c) {
  const rpn_assign_attrs *a = c->attrs;
  const slots s = slots_of(a);
  const ic_tensor *an = ic_in(c, s.anchor, 0), *gt = ic_in(c, s.gt, 0), *im = ic_in(c, s.info, 0);
  const ic_tensor *cr = ic_in(c, s.crowd, 0), *lb = a->retina ? ic_in(c, s.labels, 0) : NULL;
  size_t n;
  const uint64_t *glod = ic_kseq(c, s.gt, 0, 0, &n);
  if (!glod) return c->err->code;
  const int64_t A = an->dims[0], N = (int64_t)n;
  int64_t G = 0;
  for (size_t i = 0; i < n; i++) {
    if ((int64_t)(glod[i + 1] - glod[i]) > G) G = (int64_t)(glod[i + 1] - glod[i]);
  }
  const size_t es = ic_dtype_size(an->dtype);
  const size_t a1 = (size_t)A + 1, g1 = (size_t)G + 1, na = (size_t)N * a1;
  /* work: 8 int32 arrays of A (gid: G), labels, then the dtype's arrays; results: 3 int32
   * arrays and 2 [., 4] arrays of N * A, 2 LoDs */
  const size_t bytes = 8 * a1 * 4 + a1 + (g1 * 4 + a1 * g1 + a1 + g1) * es + 16 +
                       3 * na * 4 + 2 * na * 4 * es + 2 * ((size_t)N + 1) * 8 + 64;
  ic_buffer *buf = ic_kscratch(c, bytes);
  if (!buf) return c->err->code;
  char *p = buf->data;
#define TAKE(ptr, type, count)                              \
  do {                                                      \
    p = (char *)(((uintptr_t)p + 7) & ~(uintptr_t)7);       \
    ptr = (type *)(void *)p;                                \
    p += (count) * sizeof(type);                            \
  } while (0)
  work w;
  acc o = {0};
  TAKE(o.loc_lod, uint64_t, (size_t)N + 1);
  TAKE(o.score_lod, uint64_t, (size_t)N + 1);
  TAKE(w.inside, int32_t, a1);
  TAKE(w.argmax, int32_t, a1);
  TAKE(w.gid, int32_t, g1);
  TAKE(w.fgc, int32_t, a1);
  TAKE(w.bgc, int32_t, a1);
  TAKE(w.fgo, int32_t, a1);
  TAKE(w.fg, int32_t, a1);
  TAKE(w.bg, int32_t, a1);
  TAKE(w.label, int8_t, a1);
  TAKE(o.loc, int32_t, na);
  TAKE(o.score, int32_t, na);
  TAKE(o.lbl, int32_t, na);
  if (an->dtype == IC_FP32) {
    TAKE(w.gts, float, g1 * 4);
    TAKE(w.ov, float, a1 * g1);
    TAKE(w.amax, float, a1);
    TAKE(w.gmax, float, g1);
    TAKE(o.tbox, float, na * 4);
    TAKE(o.biw, float, na * 4);
  } else {
    TAKE(w.gts, double, g1 * 4);
    TAKE(w.ov, double, a1 * g1);
    TAKE(w.amax, double, a1);
    TAKE(w.gmax, double, g1);
    TAKE(o.tbox, double, na * 4);
    TAKE(o.biw, double, na * 4);
  }
#undef TAKE
  ic_buffer *fb = NULL;
  if (a->retina) {
    fb = ic_kscratch(c, (size_t)N * 4 + 4);
    if (!fb) {
      ic_buffer_release(buf);
      return c->err->code;
    }
    o.fgnum = fb->data;
  }
  o.loc_lod[0] = o.score_lod[0] = 0;
  const uint64_t key = ic_philox_key(0, c->env->seed, c->op_key);
  const int32_t *crowd = cr->data, *labels = lb ? lb->data : NULL;
  for (int64_t i = 0; i < N; i++) {
    const int64_t g0 = (int64_t)glod[i], K = (int64_t)glod[i + 1] - g0;
    if (an->dtype == IC_FP32) {
      image_f32(a, an->data, A, (const float *)gt->data + g0 * 4, crowd + g0,
                labels ? labels + g0 : NULL, K, (const float *)im->data + i * 3, &w, key, i, &o);
    } else {
      image_f64(a, an->data, A, (const double *)gt->data + g0 * 4, crowd + g0,
                labels ? labels + g0 : NULL, K, (const double *)im->data + i * 3, &w, key, i,
                &o);
    }
  }
  ic_status st = ic_kalloc_out(c, OUT_LOC, 0, IC_INT32, 1, (int64_t[]){o.nloc});
  if (!st) st = ic_kalloc_out(c, OUT_SCORE, 0, IC_INT32, 1, (int64_t[]){o.nscore});
  if (!st) st = ic_kalloc_out(c, OUT_TBOX, 0, an->dtype, 2, (int64_t[]){o.nloc, 4});
  if (!st) st = ic_kalloc_out(c, OUT_TLBL, 0, IC_INT32, 2, (int64_t[]){o.nscore, 1});
  if (!st) st = ic_kalloc_out(c, OUT_BIW, 0, an->dtype, 2, (int64_t[]){o.nloc, 4});
  if (!st && a->retina) st = ic_kalloc_out(c, OUT_FGNUM, 0, IC_INT32, 2, (int64_t[]){N, 1});
  if (!st) {
    memcpy(ic_out(c, OUT_LOC, 0)->data, o.loc, (size_t)o.nloc * 4);
    memcpy(ic_out(c, OUT_SCORE, 0)->data, o.score, (size_t)o.nscore * 4);
    memcpy(ic_out(c, OUT_TLBL, 0)->data, o.lbl, (size_t)o.nscore * 4);
    memcpy(ic_out(c, OUT_TBOX, 0)->data, o.tbox, (size_t)o.nloc * 4 * es);
    memcpy(ic_out(c, OUT_BIW, 0)->data, o.biw, (size_t)o.nloc * 4 * es);
    if (a->retina) memcpy(ic_out(c, OUT_FGNUM, 0)->data, o.fgnum, (size_t)N * 4);
  }
  if (!st) st = set_lod(c, OUT_LOC, o.loc_lod, n);
  if (!st) st = set_lod(c, OUT_SCORE, o.score_lod, n);
  if (!st) st = set_lod(c, OUT_TBOX, o.loc_lod, n);
  if (!st) st = set_lod(c, OUT_TLBL, o.score_lod, n);
  if (!st) st = set_lod(c, OUT_BIW, o.loc_lod, n);
  if (!st && a->retina) {
    uint64_t *fl = o.score_lod; /* done with it: 0, 1, ..., N */
    for (int64_t i = 0; i <= N; i++) fl[i] = (uint64_t)i;
    st = set_lod(c, OUT_FGNUM, fl, n);
  }
  if (fb) ic_buffer_release(fb);
  ic_buffer_release(buf);
  return st;
}
