/* RPN proposals from anchor scores and deltas, for generate_proposals_v2 (paddle/phi/kernels/
 * cpu/generate_proposals_kernel.cc, funcs/detection/nms_util.h, bbox_util.h,
 * GenerateProposalsV2InferMeta) and fluid's generate_proposals
 * (paddle/fluid/operators/detection/generate_proposals_op.cc).
 *
 * Scores [N, A, H, W], BboxDeltas [N, 4A, H, W], ImShape [N, 2] (height, width) or, for
 * generate_proposals, ImInfo [N, 3] (height, width, scale), Anchors and Variances [H, W, A, 4]
 * (any shape of H * W * A * 4 values). Per image, candidates are numbered in (h, w, a) order:
 *   1. with pre_nms_topN <= 0 or at least their number: all, std::sort-ed by descending
 *      score; else the pre_nms_topN best as std::nth_element leaves them (not sorted);
 *   2. decoded like box_coder with the variances, width/height deltas capped at
 *      log(1000 / 16); clipped to [0, width - off] x [0, height - off] (off = 1 when
 *      pixel_offset, always for generate_proposals; else 0);
 *   3. kept if both sides (+ off) are >= max(min_size, 1) (generate_proposals: the sides
 *      divided by the image's scale, + 1) and, with pixel_offset, the centre lies within the
 *      image;
 *   4. when nms_thresh > 0: greedy NMS over the kept boxes by descending score, equal scores
 *      the later one first (Paddle's stable ascending sort read from the back; IoU with +1
 *      pixel sizes when pixel_offset; threshold multiplied by eta after each kept box while
 *      eta < 1 and it is above 0.5), then the first post_nms_topN (<= 0: all). With
 *      nms_thresh <= 0 the boxes stay in step 1's order and post_nms_topN does not apply.
 * Steps 1 and 4 reproduce libstdc++'s orders (stdsort.h), so equal scores come out where
 * Paddle puts them. An image with no box left after step 3 contributes one all-zero box of
 * score 0, as in Paddle. RpnRois [K, 4], RpnRoiProbs [K, 1] (all images one after another)
 * and RpnRoisNum (int32 [N]); generate_proposals also gives RpnRois and RpnRoiProbs the
 * per-image split as LoD. */
#include "kernels/cpu/proposals.h"

#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/detection.h"
#include "kernels/cpu/stdsort.h"

const ic_slotdef ic_proposals_outputs[3] = {{"RpnRois", IC_SLOT_DYNAMIC},
                                            {"RpnRoiProbs", IC_SLOT_DYNAMIC},
                                            {"RpnRoisNum", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

ic_status ic_proposals_parse(ic_attr_reader *r, gp_attrs *a) {
  a->pre_n = ic_ar_int(r, "pre_nms_topN", 6000);
  a->post_n = ic_ar_int(r, "post_nms_topN", 1000);
  a->nms_thresh = (float)ic_ar_float(r, "nms_thresh", 0.5);
  a->min_size = (float)ic_ar_float(r, "min_size", 0.1);
  a->eta = (float)ic_ar_float(r, "eta", 1.0);
  a->pixel_offset = a->legacy ? true : ic_ar_bool(r, "pixel_offset", true);
  return r->st;
}

enum { IN_SCORES, IN_DELTAS, IN_SHAPE, IN_ANCHORS, IN_VARS };
enum { OUT_ROIS, OUT_PROBS, OUT_NUM };

ic_status ic_proposals_infer(ic_kctx *c) {
  const gp_attrs *a = c->attrs;
  const ic_tensor *s = ic_in(c, IN_SCORES, 0), *d = ic_in(c, IN_DELTAS, 0),
                  *im = ic_in(c, IN_SHAPE, 0), *an = ic_in(c, IN_ANCHORS, 0),
                  *va = ic_in(c, IN_VARS, 0);
  ic_status st = ic_kcheck_dtype(c, IN_SCORES, 0, IC_DT_FLOAT);
  if (st) return st;
  for (size_t k = IN_DELTAS; k <= IN_VARS; k++) {
    if (ic_in(c, k, 0)->dtype != s->dtype) return ic_kfail_in(c, k, 0, "expected Scores' dtype");
  }
  if (s->ndim != 4) return ic_kfail_in(c, IN_SCORES, 0, "expected rank 4 [N, A, H, W]");
  const int64_t N = s->dims[0], A = s->dims[1], H = s->dims[2], W = s->dims[3];
  if (d->ndim != 4 || d->dims[0] != N || d->dims[1] != 4 * A || d->dims[2] != H ||
      d->dims[3] != W) {
    return ic_kfail_in(c, IN_DELTAS, 0, "expected [%lld, %lld, %lld, %lld] (4 deltas per anchor)",
                       (long long)N, (long long)(4 * A), (long long)H, (long long)W);
  }
  const int want_cols = a->legacy ? 3 : 2;
  if (im->ndim != 2 || im->dims[0] != N || im->dims[1] < want_cols) {
    return ic_kfail_in(c, IN_SHAPE, 0, "expected [%lld, %d] (%s per image)", (long long)N,
                       want_cols, a->legacy ? "height, width, scale" : "height, width");
  }
  const int64_t want = H * W * A * 4;
  if (ic_tensor_numel_(an) != want) {
    return ic_kfail_in(c, IN_ANCHORS, 0, "expected %lld values ([%lld, %lld, %lld, 4])",
                       (long long)want, (long long)H, (long long)W, (long long)A);
  }
  if (ic_tensor_numel_(va) != want) {
    return ic_kfail_in(c, IN_VARS, 0, "expected %lld values, as Anchors", (long long)want);
  }
  ic_tensor_set_meta(ic_out(c, OUT_ROIS, 0), s->dtype, 2, (int64_t[]){0, 4});
  ic_tensor_set_meta(ic_out(c, OUT_PROBS, 0), s->dtype, 2, (int64_t[]){0, 1});
  if (ic_out(c, OUT_NUM, 0)) ic_tensor_set_meta(ic_out(c, OUT_NUM, 0), IC_INT32, 1, (int64_t[]){0});
  return IC_OK;
}

/* Paddle's comparators: scores[i] > scores[j] (step 1); descending score, the later position
 * first among equals (step 4). */
static bool higher(const void *ctx, int64_t i, int64_t j) {
  const double *s = ctx;
  return s[i] > s[j];
}

typedef struct kept {
  double score;
  int64_t pos; /* in step 3's order */
} kept;

static int nms_order(const void *pa, const void *pb) {
  const kept *a = pa, *b = pb;
  if (a->score != b->score) return a->score > b->score ? -1 : 1;
  return (a->pos < b->pos) - (a->pos > b->pos);
}

DET_DEFINE_IOU(iou_f32, float)
DET_DEFINE_IOU(iou_f64, double)

/* Scratch of one image, per candidate: its score, an index, a box, a kept entry, a keep slot. */
typedef struct scratch {
  double *score;
  int64_t *idx, *keep;
  double *bx;
  kept *ks;
} scratch;

/* One image: proposals (4 values each) and scores appended at box / prob; returns count. */
static int64_t image(const gp_attrs *a, const ic_tensor *s, const ic_tensor *d, const ic_tensor *im,
                     const ic_tensor *an, const ic_tensor *va, int64_t n, const scratch *w,
                     double *box, double *prob) {
  const ic_dtype dt = s->dtype;
  const int64_t A = s->dims[1], H = s->dims[2], W = s->dims[3], M = A * H * W;
  const double off = a->pixel_offset ? 1 : 0, clipd = det_round(dt, log(1000.0 / 16.0));
  for (int64_t hw = 0; hw < H * W; hw++) {
    for (int64_t k = 0; k < A; k++) w->score[hw * A + k] = det_get(s, (n * A + k) * H * W + hw);
  }
  for (int64_t i = 0; i < M; i++) w->idx[i] = i;
  int64_t m = M;
  if (a->pre_n <= 0 || a->pre_n >= M) {
    ic_std_sort(w->idx, M, higher, w->score);
  } else {
    ic_std_nth_element(w->idx, a->pre_n, M, higher, w->score);
    m = a->pre_n;
  }
  const int64_t ic = im->dims[1];
  const double ih = det_get(im, n * ic), iw = det_get(im, n * ic + 1);
  const double scale = a->legacy ? det_get(im, n * ic + 2) : 1;
  const double min_size = a->min_size > 1.0 ? a->min_size : 1.0;
  int64_t nk = 0;
  for (int64_t i = 0; i < m; i++) {
    const int64_t r = w->idx[i], hw = r / A, k = r % A;
    double anc[4], var[4], del[4];
    for (int q = 0; q < 4; q++) {
      anc[q] = det_get(an, r * 4 + q);
      var[q] = det_get(va, r * 4 + q);
      del[q] = det_get(d, ((n * A + k) * 4 + q) * H * W + hw);
    }
    const double aw = det_round(dt, anc[2] - anc[0] + off),
                 ah = det_round(dt, anc[3] - anc[1] + off);
    const double acx = det_round(dt, anc[0] + 0.5 * aw), acy = det_round(dt, anc[1] + 0.5 * ah);
    const double cx = det_round(dt, det_round(dt, var[0] * del[0]) * aw + acx);
    const double cy = det_round(dt, det_round(dt, var[1] * del[1]) * ah + acy);
    double tw = det_round(dt, var[2] * del[2]), th = det_round(dt, var[3] * del[3]);
    tw = tw < clipd ? tw : clipd, th = th < clipd ? th : clipd;
    const double bw = det_round(dt, det_round(dt, exp(tw)) * aw),
                 bh = det_round(dt, det_round(dt, exp(th)) * ah);
    double b[4] = {det_round(dt, cx - bw / 2), det_round(dt, cy - bh / 2),
                   det_round(dt, cx + bw / 2 - off), det_round(dt, cy + bh / 2 - off)};
    for (int q = 0; q < 4; q++) {
      const double lim = det_round(dt, (q % 2 ? ih : iw) - off), v = b[q];
      const double mn = lim < v ? lim : v;
      b[q] = mn < 0 ? 0 : mn;
    }
    const double ws = det_round(dt, b[2] - b[0] + off), hs = det_round(dt, b[3] - b[1] + off);
    bool ok;
    if (a->pixel_offset) {
      /* the centre from the sides as they are; the size test on the sides scaled back to
       * the original image (generate_proposals) */
      const double xc = det_round(dt, b[0] + ws / 2), yc = det_round(dt, b[1] + hs / 2);
      double wt = ws, ht = hs;
      if (a->legacy) {
        wt = det_round(dt, det_round(dt, (b[2] - b[0]) / scale) + 1);
        ht = det_round(dt, det_round(dt, (b[3] - b[1]) / scale) + 1);
      }
      ok = wt >= min_size && ht >= min_size && xc <= iw && yc <= ih;
    } else {
      ok = ws >= min_size && hs >= min_size;
    }
    if (!ok) continue;
    for (int q = 0; q < 4; q++) w->bx[nk * 4 + q] = b[q];
    w->ks[nk] = (kept){w->score[r], nk};
    nk++;
  }
  if (nk == 0) {
    for (int q = 0; q < 4; q++) box[q] = 0;
    prob[0] = 0;
    return 1;
  }
  for (int64_t i = 0; i < nk; i++) w->score[i] = w->ks[i].score; /* now by position */
  int64_t nout = 0;
  if (a->nms_thresh <= 0) {
    for (int64_t i = 0; i < nk; i++) w->keep[nout++] = i;
  } else {
    qsort(w->ks, (size_t)nk, sizeof *w->ks, nms_order);
    double (*iou)(const double *, const double *, bool) = dt == IC_FP32 ? iou_f32 : iou_f64;
    double thr = a->nms_thresh;
    for (int64_t i = 0; i < nk; i++) {
      const int64_t p = w->ks[i].pos;
      bool flag = true;
      for (int64_t j = 0; j < nout && flag; j++) {
        flag = iou(w->bx + p * 4, w->bx + w->keep[j] * 4, !a->pixel_offset) <= thr;
      }
      if (!flag) continue;
      w->keep[nout++] = p;
      if (a->eta < 1 && thr > 0.5) thr = det_round(dt, thr * a->eta);
    }
    if (a->post_n > 0 && a->post_n < nout) nout = a->post_n;
  }
  for (int64_t i = 0; i < nout; i++) {
    const int64_t p = w->keep[i];
    for (int q = 0; q < 4; q++) box[i * 4 + q] = w->bx[p * 4 + q];
    prob[i] = w->score[p];
  }
  return nout;
}

ic_status ic_proposals_run(ic_kctx *c) {
  const gp_attrs *a = c->attrs;
  const ic_tensor *s = ic_in(c, IN_SCORES, 0), *d = ic_in(c, IN_DELTAS, 0),
                  *im = ic_in(c, IN_SHAPE, 0), *an = ic_in(c, IN_ANCHORS, 0),
                  *va = ic_in(c, IN_VARS, 0);
  const int64_t N = s->dims[0], M = s->dims[1] * s->dims[2] * s->dims[3];
  const int64_t per = M > 0 ? M : 1; /* at most M proposals per image (1 when none is left) */
  const double bytes = (double)per * (sizeof(double) + 2 * sizeof(int64_t) + 4 * sizeof(double) +
                                      sizeof(kept)) +
                       (double)N * (double)per * 5 * sizeof(double) +
                       (double)(N + 1) * sizeof(int64_t);
  if (bytes > 1e10) return ic_kfail_in(c, IN_SCORES, 0, "needs %.3g bytes of scratch", bytes);
  ic_buffer *scr = ic_kscratch(c, (size_t)bytes);
  if (!scr) return c->err->code;
  scratch w;
  w.score = scr->data;
  w.idx = (int64_t *)(w.score + per);
  w.keep = w.idx + per;
  w.bx = (double *)(w.keep + per);
  w.ks = (kept *)(w.bx + per * 4);
  double *box = (double *)(w.ks + per), *prob = box + N * per * 4;
  int64_t *counts = (int64_t *)(prob + N * per);
  int64_t total = 0;
  for (int64_t n = 0; n < N; n++) {
    counts[n] = image(a, s, d, im, an, va, n, &w, box + total * 4, prob + total);
    total += counts[n];
  }
  ic_status st = ic_kalloc_out(c, OUT_ROIS, 0, s->dtype, 2, (int64_t[]){total, 4});
  if (!st) st = ic_kalloc_out(c, OUT_PROBS, 0, s->dtype, 2, (int64_t[]){total, 1});
  if (!st) st = ic_kalloc_out(c, OUT_NUM, 0, IC_INT32, 1, (int64_t[]){N});
  if (!st) {
    ic_tensor *ro = ic_out(c, OUT_ROIS, 0), *po = ic_out(c, OUT_PROBS, 0),
              *no = ic_out(c, OUT_NUM, 0);
    for (int64_t i = 0; i < total * 4; i++) det_put(ro, i, box[i]);
    for (int64_t i = 0; i < total; i++) det_put(po, i, prob[i]);
    if (no) {
      for (int64_t n = 0; n < N; n++) ((int32_t *)no->data)[n] = (int32_t)counts[n];
    }
  }
  for (int k = 0; !st && a->legacy && k < 2; k++) {
    const size_t n_off = (size_t)N + 1;
    ic_lod *lod = ic_lod_new(1, &n_off);
    if (lod) {
      lod->offsets[0][0] = 0;
      for (int64_t n = 0; n < N; n++) lod->offsets[0][n + 1] = lod->offsets[0][n] + (uint64_t)counts[n];
    }
    st = ic_kset_lod(c, ic_out(c, k ? OUT_PROBS : OUT_ROIS, 0), lod, true);
  }
  ic_buffer_release(scr);
  return st;
}
