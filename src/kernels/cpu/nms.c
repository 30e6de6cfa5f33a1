/* Multi-class non-maximum suppression as Paddle's MultiClassNMSKernel does it
 * (paddle/phi/kernels/cpu/multiclass_nms3_kernel.cc, MultiClassNMSInferMeta; the legacy ops in
 * paddle/fluid/operators/detection/multiclass_nms_op.cc), for multiclass_nms (Out),
 * multiclass_nms2 (Out, Index) and multiclass_nms3 (Out, Index, NmsRoisNum).
 *
 * Two layouts:
 *   - BBoxes [N, M, D] shared by all classes, Scores [N, C, M]: batch n is image n;
 *   - BBoxes [M, C, 4] (a box per class), Scores [M, C]: the M rows are split into images
 *     by RoisNum (int32/int64, one count per image) or, without it, by BBoxes' LoD (its
 *     last level); with neither, all rows are one image.
 * Per image and class c other than background_label: the boxes scoring > score_threshold,
 * sorted by descending score (stable), the first nms_top_k of them (-1: all), are kept
 * greedily while their IoU with every kept box is <= the adaptive threshold (starts at
 * nms_threshold; after each kept box it is multiplied by nms_eta while eta < 1 and it is
 * above 0.5). In the per-class layout each class's survivors are then put in index order.
 * If keep_top_k > -1 and more survive, the keep_top_k best (stable by score) are kept.
 * Out rows are [label, score, box...] grouped by ascending label; Index (int32 [K, 1]) is
 * the kept box's row in the flattened input (n * M + m, or (row * C + c) in the per-class
 * layout); NmsRoisNum (int32 [images]) the rows per image. Out, and Index when requested,
 * carry the same split as a one-level LoD (offsets 0, n0, n0 + n1, ...: how programs before
 * NmsRoisNum read it). When nothing survives, Out is [0, D + 2] if Index is requested, else
 * the single value -1 ([1, 1]) with the LoD {0, 1} whatever the images, counted as one row of
 * the first image (Paddle reads past its counts for later images; they are 0 here).
 * Polygon boxes (D = 8, 16, 24 or 32: 4 to 16 points [x1, y1, x2, y2, ...], shared layout
 * only, as in Paddle) use Paddle's PolyIoU (polyiou.c: each polygon's shoelace area in the
 * input's precision, their overlap exact in double where Paddle clips with gpc, which agrees
 * up to the last bits; IoU 0 when either area or the overlap is 0; `normalized` plays no
 * part), and Out's rows carry the D coordinates. Two polygons whose bounding boxes are apart
 * have IoU 0 without further work. A polygon that is not simple (its boundary crosses or
 * touches itself: gpc fills it by even-odd parity and Paddle sums the areas of the contours it
 * returns, holes included) is refused with an error naming the image and class, but only
 * where Paddle would clip it: when it is compared with a box whose bounding box meets its own
 * and neither area is 0.
 *
 * Speed: the greedy pass of fp32 boxes tests a candidate against all kept boxes of its class
 * at once, 16 / 8 / 4 lanes (AVX-512F, AVX2, else SSE) with iou_f32's float operations per
 * lane; an image's classes are shared across the kernel's threads when classes x boxes >=
 * 4096. Neither changes a bit of the result. */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/detection.h"
#include "kernels/cpu/nms.h"
#include "kernels/cpu/polyiou.h"
#include "kernels/cpu/vmath.h"

ic_status ic_nms_parse(ic_attr_reader *r, nms_attrs *a) {
  a->background_label = ic_ar_int(r, "background_label", 0);
  a->score_threshold = (float)ic_ar_float_req(r, "score_threshold");
  a->nms_top_k = ic_ar_int_req(r, "nms_top_k");
  a->nms_threshold = (float)ic_ar_float(r, "nms_threshold", 0.3);
  a->nms_eta = (float)ic_ar_float(r, "nms_eta", 1.0);
  a->keep_top_k = ic_ar_int_req(r, "keep_top_k");
  a->normalized = ic_ar_bool(r, "normalized", true);
  if (r->st) return r->st;
  if (!(a->nms_eta > 0)) return ic_ar_fail(r, "nms_eta", "is %g, expected > 0", a->nms_eta);
  return IC_OK;
}

ic_status ic_nms_infer(ic_kctx *c, const nms_slots *s) {
  const ic_tensor *b = ic_in(c, (size_t)s->in_bboxes, 0), *sc = ic_in(c, (size_t)s->in_scores, 0);
  const ic_tensor *rn = s->in_rois_num >= 0 ? ic_in(c, (size_t)s->in_rois_num, 0) : NULL;
  ic_status st = ic_kcheck_dtype(c, (size_t)s->in_scores, 0, IC_DT_FLOAT);
  if (st) return st;
  if (b->dtype != sc->dtype) {
    return ic_kfail_in(c, (size_t)s->in_bboxes, 0, "expected Scores' dtype");
  }
  if (b->ndim != 3) return ic_kfail_in(c, (size_t)s->in_bboxes, 0, "expected rank 3");
  if (sc->ndim == 3) {
    const int64_t d = b->dims[2];
    if (!(d == 4 || d == 8 || d == 16 || d == 24 || d == 32)) {
      return ic_kfail_in(c, (size_t)s->in_bboxes, 0,
                         "expected [N, M, D] with D 4 (a box) or 8, 16, 24, 32 (a polygon), got "
                         "D = %lld", (long long)d);
    }
    if (b->dims[0] != sc->dims[0] || b->dims[1] != sc->dims[2]) {
      return ic_kfail_in(c, (size_t)s->in_bboxes, 0,
                         "expected [%lld, %lld, %lld] to match Scores [N, C, M]",
                         (long long)sc->dims[0], (long long)sc->dims[2], (long long)d);
    }
    if (rn) {
      /* Paddle ignores RoisNum in this layout; so does icore. */
    }
  } else if (sc->ndim == 2) {
    if (b->dims[0] != sc->dims[0] || b->dims[1] != sc->dims[1] || b->dims[2] != 4) {
      return ic_kfail_in(c, (size_t)s->in_bboxes, 0,
                         "expected [%lld, %lld, 4] to match Scores [M, C] (a box per class; "
                         "polygons only in the shared layout [N, M, D])",
                         (long long)sc->dims[0], (long long)sc->dims[1]);
    }
    if (rn) {
      st = ic_kcheck_dtype(c, (size_t)s->in_rois_num, 0, IC_DT_INT);
      if (st) return st;
      if (rn->ndim != 1) return ic_kfail_in(c, (size_t)s->in_rois_num, 0, "expected rank 1");
    }
  } else {
    return ic_kfail_in(c, (size_t)s->in_scores, 0, "expected rank 3 [N, C, M] or 2 [M, C]");
  }
  ic_tensor_set_meta(ic_out(c, (size_t)s->out, 0), sc->dtype, 2, (int64_t[]){0, b->dims[2] + 2});
  if (s->out_index >= 0 && ic_out(c, (size_t)s->out_index, 0)) {
    ic_tensor_set_meta(ic_out(c, (size_t)s->out_index, 0), IC_INT32, 2, (int64_t[]){0, 1});
  }
  if (s->out_rois_num >= 0 && ic_out(c, (size_t)s->out_rois_num, 0)) {
    ic_tensor_set_meta(ic_out(c, (size_t)s->out_rois_num, 0), IC_INT32, 1, (int64_t[]){0});
  }
  return IC_OK;
}

/* A candidate: its score (in the input's precision), class and box index; pos breaks ties
 * so that qsort behaves as Paddle's stable_sort. */
typedef struct cand {
  double score;
  int64_t label, idx, pos;
} cand;

static int by_score(const void *pa, const void *pb) {
  const cand *a = pa, *b = pb;
  if (a->score != b->score) return a->score > b->score ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}
static int by_idx(const void *pa, const void *pb) {
  const cand *a = pa, *b = pb;
  return (a->idx > b->idx) - (a->idx < b->idx);
}
static int by_label_then_pos(const void *pa, const void *pb) {
  const cand *a = pa, *b = pb;
  if (a->label != b->label) return (a->label > b->label) - (a->label < b->label);
  return (a->pos > b->pos) - (a->pos < b->pos);
}

DET_DEFINE_IOU(iou_f64, double)

typedef struct image {
  const ic_tensor *b, *sc;
  bool per_class;    /* [M, C, 4] / [M, C] layout */
  int64_t start, m;  /* rows [start, start + m) of the per-class layout; image n otherwise */
  int64_t n, C, M;   /* image number, classes, boxes per image (shared layout) */
  int64_t D;         /* values per box: 4, or a polygon's 8, 16, 24, 32 (shared layout) */
} image;

static double score_of(const image *im, int64_t c, int64_t m) {
  return im->per_class ? det_get(im->sc, (im->start + m) * im->C + c)
                       : det_get(im->sc, (im->n * im->C + c) * im->M + m);
}
static void box_of(const image *im, int64_t c, int64_t m, double *bx) {
  const int64_t off = im->per_class ? ((im->start + m) * im->C + c) * 4 : (im->n * im->M + m) * 4;
  for (int k = 0; k < 4; k++) bx[k] = det_get(im->b, off + k);
}

static void cand_swap(cand *x, cand *y) {
  cand t = *x;
  *x = *y;
  *y = t;
}

/* Moves the k best of work[0, n) (by_score: a total order, score then position) to the
 * front, in no particular order: quickselect with a median-of-three pivot. Sorting those k
 * afterwards gives exactly the first k of a full sort, at O(n) instead of O(n log n), which
 * matters when every one of 8,400 boxes passes the score threshold of 80 classes and
 * nms_top_k keeps 1,000. */
static void select_top(cand *work, int64_t n, int64_t k) {
  int64_t lo = 0, hi = n - 1;
  while (hi > lo) {
    int64_t mid = lo + (hi - lo) / 2;
    if (by_score(&work[mid], &work[lo]) < 0) cand_swap(&work[mid], &work[lo]);
    if (by_score(&work[hi], &work[lo]) < 0) cand_swap(&work[hi], &work[lo]);
    if (by_score(&work[hi], &work[mid]) < 0) cand_swap(&work[hi], &work[mid]);
    cand pivot = work[mid];
    int64_t i = lo, j = hi;
    while (i <= j) {
      while (by_score(&work[i], &pivot) < 0) i++;
      while (by_score(&pivot, &work[j]) < 0) j--;
      if (i <= j) cand_swap(&work[i++], &work[j--]);
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}

/* The greedy test of fp32 boxes, W lanes at a time: is box `bx` (area aa) suppressed by any of
 * the nk boxes kept so far, held as five rows of `cap` floats (x0, y0, x1, y1, area; cap a
 * multiple of 16, the lanes past nk masked off)? Per kept box the operations, their order and
 * their float rounding are iou_f32's (Paddle's JaccardOverlap<float>), the kept box's area
 * computed once when it was kept; a box suppresses when its overlap is not <= thr (NaN
 * suppresses, as in the scalar test). The answer does not depend on the width. */
#define NMS_SUPPRESSED(SUF, W, ATTR)                                                          \
  ATTR static bool suppressed_##SUF(const float *k, int64_t cap, int64_t nk, const float *bx, \
                                    float aa, float thr, float norm) {                        \
    typedef float vf __attribute__((vector_size(4 * (W))));                                   \
    typedef int32_t vi __attribute__((vector_size(4 * (W))));                                 \
    const vf a0 = (vf){0} + bx[0], a1 = (vf){0} + bx[1], a2 = (vf){0} + bx[2];               \
    const vf a3 = (vf){0} + bx[3], av = (vf){0} + aa, tv = (vf){0} + thr;                    \
    const vf nv = (vf){0} + norm, zero = {0};                                                 \
    vi lane;                                                                                  \
    for (int l = 0; l < (W); l++) lane[l] = l;                                                \
    for (int64_t j = 0; j < nk; j += (W)) {                                                   \
      vf b0, b1, b2, b3, ab;                                                                  \
      memcpy(&b0, k + j, sizeof b0);                                                          \
      memcpy(&b1, k + cap + j, sizeof b1);                                                    \
      memcpy(&b2, k + 2 * cap + j, sizeof b2);                                                \
      memcpy(&b3, k + 3 * cap + j, sizeof b3);                                                \
      memcpy(&ab, k + 4 * cap + j, sizeof ab);                                                \
      vi apart = (b0 > a2) | (b2 < a0) | (b1 > a3) | (b3 < a1);                               \
      vi lt2 = a2 < b2, gt0 = a0 > b0, lt3 = a3 < b3, gt1 = a1 > b1;                          \
      vf x1 = (vf)((lt2 & (vi)a2) | (~lt2 & (vi)b2)), x0 = (vf)((gt0 & (vi)a0) | (~gt0 & (vi)b0)); \
      vf y1 = (vf)((lt3 & (vi)a3) | (~lt3 & (vi)b3)), y0 = (vf)((gt1 & (vi)a1) | (~gt1 & (vi)b1)); \
      vf iw = x1 - x0 + nv, ih = y1 - y0 + nv;                                                \
      vf inter = iw * ih;                                                                     \
      vf iou = inter / (av + ab - inter);                                                     \
      iou = (vf)((apart & (vi)zero) | (~apart & (vi)iou));                                    \
      vi sup = ~(iou <= tv) & (lane + (int32_t)j < (int32_t)nk);                              \
      int32_t any = 0;                                                                        \
      for (int l = 0; l < (W); l++) any |= sup[l];                                            \
      if (any) return true;                                                                   \
    }                                                                                         \
    return false;                                                                             \
  }

NMS_SUPPRESSED(w16, 16, __attribute__((target("avx512f"))))
NMS_SUPPRESSED(w8, 8, __attribute__((target("avx2"))))
NMS_SUPPRESSED(w4, 4, )

#define NMS_MAX_TASKS 64 /* tasks sharing an image's classes, at most */

typedef bool (*suppressed_fn)(const float *, int64_t, int64_t, const float *, float, float,
                              float);

/* iou_f32's area of a box, in float. */
static float area_f32(const float *b, bool normalized) {
  return (b[2] < b[0] || b[3] < b[1]) ? 0.0f
         : normalized                 ? (b[2] - b[0]) * (b[3] - b[1])
                                      : (b[2] - b[0] + 1) * (b[3] - b[1] + 1);
}

/* A polygon kept so far: its bounding box, shoelace area (in the input's precision), whether
 * it is not simple (polyiou.h), and its values. */
typedef struct poly_kept {
  double bb[4];
  double area;
  bool crossing;
  const void *xy;
} poly_kept;

/* One task's scratch: the candidates of a class (m + 1), and the boxes kept so far: five rows
 * of `cap` floats (fp32) or four doubles per box (fp64), or polygons (pk). */
typedef struct nms_ws {
  cand *work;
  float *kf;
  double *kd;
  poly_kept *pk;
  int64_t cap;
} nms_ws;

static poly_kept poly_of(const image *im, int64_t m) {
  const int n = (int)(im->D / 2);
  const int64_t off = (im->n * im->M + m) * im->D;
  poly_kept p;
  if (im->b->dtype == IC_FP32) {
    const float *xy = (const float *)im->b->data + off;
    p.xy = xy;
    p.area = ic_poly_area_f32(xy, n);
    p.crossing = ic_poly_self_crossing_f32(xy, n);
  } else {
    const double *xy = (const double *)im->b->data + off;
    p.xy = xy;
    p.area = ic_poly_area_f64(xy, n);
    p.crossing = ic_poly_self_crossing_f64(xy, n);
  }
  p.bb[0] = p.bb[2] = det_get(im->b, off);
  p.bb[1] = p.bb[3] = det_get(im->b, off + 1);
  for (int i = 1; i < n; i++) {
    const double x = det_get(im->b, off + 2 * i), y = det_get(im->b, off + 2 * i + 1);
    if (x < p.bb[0]) p.bb[0] = x;
    if (x > p.bb[2]) p.bb[2] = x;
    if (y < p.bb[1]) p.bb[1] = y;
    if (y > p.bb[3]) p.bb[3] = y;
  }
  return p;
}

/* Whether polygon p is kept against the nk kept ones under threshold thr (Paddle's order:
 * PolyIoU(p, kept), the first IoU above thr suppresses); *bad set when a polygon that is not
 * simple would have to be clipped. */
static bool poly_keep(const poly_kept *p, const poly_kept *kept, int64_t nk, double thr,
                      bool f32, int n, bool *bad) {
  for (int64_t j = 0; j < nk; j++) {
    const poly_kept *k = &kept[j];
    double iou = 0;
    const bool apart = p->bb[2] < k->bb[0] || k->bb[2] < p->bb[0] || p->bb[3] < k->bb[1] ||
                       k->bb[3] < p->bb[1];
    if (!apart && p->area != 0 && k->area != 0) {
      if (p->crossing || k->crossing) {
        *bad = true;
        return false;
      }
      iou = f32 ? ic_poly_ratio_f32((float)p->area, (float)k->area,
                                    ic_poly_overlap_f32(k->xy, p->xy, n))
                : ic_poly_ratio_f64(p->area, k->area, ic_poly_overlap_f64(k->xy, p->xy, n));
    }
    if (!(f32 ? (float)iou <= (float)thr : iou <= thr)) return false;
  }
  return true;
}

/* NMS of class c of one image: writes its survivors, in output order, to out (room for
 * min(nms_top_k, m)) and returns how many, or -1 when a self-crossing polygon would have to
 * be clipped. */
static int64_t nms_class(const nms_attrs *a, const image *im, int64_t c, const nms_ws *ws,
                         suppressed_fn sup, cand *out) {
  const int64_t m = im->per_class ? im->m : im->M;
  const bool f32 = im->sc->dtype == IC_FP32;
  cand *work = ws->work;
  int64_t n = 0;
  if (f32 && !im->per_class) {
    const float *s = (const float *)im->sc->data + (im->n * im->C + c) * im->M;
    const float st = (float)a->score_threshold;
    for (int64_t i = 0; i < m; i++) {
      if (s[i] > st) work[n++] = (cand){s[i], c, i, i};
    }
  } else {
    for (int64_t i = 0; i < m; i++) {
      double s = score_of(im, c, i);
      if (s > a->score_threshold) work[n++] = (cand){s, c, i, i};
    }
  }
  if (a->nms_top_k > -1 && a->nms_top_k < n) {
    select_top(work, n, a->nms_top_k);
    n = a->nms_top_k;
  }
  qsort(work, (size_t)n, sizeof *work, by_score);
  double thr = a->nms_threshold;
  int64_t kept = 0;
  for (int64_t i = 0; i < n; i++) {
    if (im->D != 4) {
      const poly_kept p = poly_of(im, work[i].idx);
      bool bad = false;
      const bool keep = poly_keep(&p, ws->pk, kept, thr, f32, (int)(im->D / 2), &bad);
      if (bad) return -1;
      if (!keep) continue;
      ws->pk[kept] = p;
      out[kept++] = work[i];
      if (a->nms_eta < 1 && thr > 0.5) {
        thr = f32 ? (double)(float)(thr * a->nms_eta) : thr * a->nms_eta;
      }
      continue;
    }
    double bi[4];
    box_of(im, c, work[i].idx, bi);
    if (f32) {
      const float bf[4] = {(float)bi[0], (float)bi[1], (float)bi[2], (float)bi[3]};
      const float aa = area_f32(bf, a->normalized);
      /* thr is a float here (the attribute, and each eta step rounded to float) */
      if (sup(ws->kf, ws->cap, kept, bf, aa, (float)thr, a->normalized ? 0.0f : 1.0f)) continue;
      for (int q = 0; q < 4; q++) ws->kf[q * ws->cap + kept] = bf[q];
      ws->kf[4 * ws->cap + kept] = aa;
    } else {
      bool keep = true;
      for (int64_t j = 0; j < kept && keep; j++) {
        keep = iou_f64(bi, ws->kd + 4 * j, a->normalized) <= thr;
      }
      if (!keep) continue;
      memcpy(ws->kd + 4 * kept, bi, sizeof bi);
    }
    out[kept++] = work[i];
    if (a->nms_eta < 1 && thr > 0.5) {
      thr = f32 ? (double)(float)(thr * a->nms_eta) : thr * a->nms_eta;
    }
  }
  if (im->per_class) qsort(out, (size_t)kept, sizeof *out, by_idx);
  return kept;
}

/* NMS of one image: appends its kept candidates, in output order, to out and returns how
 * many, or -1 when a class met a self-crossing polygon (the smallest such class in *bad).
 * Class c's survivors are first written at out + c * room (room: the most one class
 * keeps), then moved down in class order; the classes are shared across up to nt tasks
 * (task t takes classes t, t + nt, ...), each with its own scratch, so the result does not
 * depend on nt. */
static int64_t nms_image(const nms_attrs *a, const image *im, const nms_ws *ws, int nt,
                         suppressed_fn sup, int64_t *count, cand *out, int64_t *bad) {
  const int64_t m = im->per_class ? im->m : im->M, C = im->C;
  const int64_t room = a->nms_top_k > -1 && a->nms_top_k < m ? a->nms_top_k : m;
#pragma omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1)
  for (int t = 0; t < nt; t++) {
    for (int64_t c = t; c < C; c += nt) {
      count[c] = c == a->background_label ? 0 : nms_class(a, im, c, &ws[t], sup, out + c * room);
    }
  }
  for (int64_t c = 0; c < C; c++) {
    if (count[c] < 0) {
      *bad = c;
      return -1;
    }
  }
  int64_t kept = 0;
  for (int64_t c = 0; c < C; c++) {
    if (count[c] && kept != c * room) memmove(out + kept, out + c * room, (size_t)count[c] * sizeof *out);
    kept += count[c];
  }
  if (a->keep_top_k > -1 && kept > a->keep_top_k) {
    for (int64_t i = 0; i < kept; i++) {
      out[i].pos = i;
      out[i].score = (float)out[i].score; /* Paddle ranks by the score as a float */
    }
    qsort(out, (size_t)kept, sizeof *out, by_score);
    kept = a->keep_top_k;
    qsort(out, (size_t)kept, sizeof *out, by_label_then_pos);
    if (im->per_class) {
      for (int64_t i = 0; i < kept;) {
        int64_t j = i;
        while (j < kept && out[j].label == out[i].label) j++;
        qsort(out + i, (size_t)(j - i), sizeof *out, by_idx);
        i = j;
      }
    }
  }
  return kept;
}

ic_status ic_nms_run(ic_kctx *c, const nms_slots *s) {
  const nms_attrs *a = c->attrs;
  const ic_tensor *b = ic_in(c, (size_t)s->in_bboxes, 0), *sc = ic_in(c, (size_t)s->in_scores, 0);
  const ic_tensor *rn = s->in_rois_num >= 0 ? ic_in(c, (size_t)s->in_rois_num, 0) : NULL;
  const bool per_class = sc->ndim == 2;
  const int64_t D = b->dims[2];
  int64_t n_img, C, M;
  int64_t *starts = NULL; /* per-class layout: n_img + 1 row offsets */
  if (!per_class) {
    n_img = sc->dims[0], C = sc->dims[1], M = sc->dims[2];
  } else {
    C = sc->dims[1], M = sc->dims[0];
    const ic_lod *lod = b->lod;
    n_img = rn                     ? ic_tensor_numel_(rn)
            : lod && lod->n_levels ? (int64_t)lod->lens[lod->n_levels - 1] - 1
                                   : 1;
    if (n_img < 0) n_img = 0;
    starts = malloc((size_t)(n_img + 1) * sizeof *starts);
    if (!starts) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
    starts[0] = 0;
    for (int64_t i = 0; i < n_img; i++) {
      int64_t cnt;
      if (rn) cnt = ic_read_i64(rn, i);
      else if (lod && lod->n_levels) {
        const uint64_t *off = lod->offsets[lod->n_levels - 1];
        cnt = (int64_t)(off[i + 1] - off[i]);
      } else cnt = M;
      if (cnt < 0 || starts[i] + cnt > M) {
        free(starts);
        return rn ? ic_kfail_in(c, (size_t)s->in_rois_num, 0,
                                "entry %lld is %lld: the counts must be >= 0 and sum to at most "
                                "the %lld rows of Scores",
                                (long long)i, (long long)cnt, (long long)M)
                  : ic_kfail_in(c, (size_t)s->in_bboxes, 0, "has a LoD beyond its %lld rows",
                                (long long)M);
      }
      starts[i + 1] = starts[i] + cnt;
    }
  }
  /* Survivors of all images one after another: per image and class at most
   * min(nms_top_k, boxes), so C * min(nms_top_k, M) per image in the shared layout and
   * C * M over all images in the per-class one. */
  const int64_t kc = a->nms_top_k > -1 && a->nms_top_k < M ? a->nms_top_k : M;
  const size_t cap = (size_t)(per_class ? C * M : n_img * C * kc) + 1, wn = (size_t)M + 1;
  /* Classes are shared across the kernel's threads when there is enough to share. */
  int nt = C * M >= 4096 ? ic_omp_threads(c->env) : 1;
  if (nt > C) nt = (int)C;
  if (nt > NMS_MAX_TASKS) nt = NMS_MAX_TASKS;
  if (nt < 1) nt = 1;
  const bool f32 = sc->dtype == IC_FP32;
  const int64_t kcap = (M + 16) / 16 * 16; /* fp32 kept rows: M rounded up past M */
  const size_t per_task = wn * sizeof(cand) + (D != 4 ? wn * sizeof(poly_kept)
                                               : f32 ? (size_t)(5 * kcap) * sizeof(float)
                                                     : wn * 4 * sizeof(double));
  ic_buffer *scratch = ic_kscratch(c, cap * sizeof(cand) + (size_t)nt * per_task +
                                          ((size_t)n_img + 1 + (size_t)C) * sizeof(int64_t));
  if (!scratch) {
    free(starts);
    return c->err->code;
  }
  cand *all = scratch->data;
  char *tp = (char *)(all + cap);
  nms_ws ws[NMS_MAX_TASKS];
  for (int t = 0; t < nt; t++, tp += per_task) {
    ws[t].work = (cand *)tp;
    ws[t].kf = f32 && D == 4 ? (float *)(ws[t].work + wn) : NULL;
    ws[t].kd = !f32 && D == 4 ? (double *)(ws[t].work + wn) : NULL;
    ws[t].pk = D != 4 ? (poly_kept *)(ws[t].work + wn) : NULL;
    ws[t].cap = kcap;
  }
  int64_t *counts = (int64_t *)tp, *class_counts = counts + n_img + 1;
  const int w = ic_vmath_width();
  suppressed_fn sup = w >= 16 ? suppressed_w16 : w >= 8 ? suppressed_w8 : suppressed_w4;
  int64_t total = 0;
  for (int64_t i = 0; i < n_img; i++) {
    image im = {b, sc, per_class, starts ? starts[i] : 0, starts ? starts[i + 1] - starts[i] : 0,
                i, C, M, D};
    int64_t bad = -1;
    counts[i] = (per_class && im.m == 0)
                    ? 0
                    : nms_image(a, &im, ws, nt, sup, class_counts, all + total, &bad);
    if (counts[i] < 0) {
      ic_buffer_release(scratch);
      free(starts);
      return ic_kfail(c, IC_ERR_UNSUPPORTED,
                      "input BBoxes '%s' of image %lld holds a polygon whose edges cross or "
                      "touch, which class %lld's NMS would have to clip; its overlap (Paddle's "
                      "gpc clipping, even-odd) is not supported",
                      ic_in_name(c, (size_t)s->in_bboxes, 0), (long long)i, (long long)bad);
    }
    total += counts[i];
  }
  const bool want_index = s->out_index >= 0 && ic_out(c, (size_t)s->out_index, 0);
  ic_status st = IC_OK;
  if (total == 0 && !want_index) {
    st = ic_kalloc_out(c, (size_t)s->out, 0, sc->dtype, 2, (int64_t[]){1, 1});
    if (!st) det_put(ic_out(c, (size_t)s->out, 0), 0, -1);
    if (n_img > 0) counts[0] = 1;
  } else {
    st = ic_kalloc_out(c, (size_t)s->out, 0, sc->dtype, 2, (int64_t[]){total, D + 2});
    if (!st && want_index) {
      st = ic_kalloc_out(c, (size_t)s->out_index, 0, IC_INT32, 2, (int64_t[]){total, 1});
    }
    if (!st) {
      ic_tensor *o = ic_out(c, (size_t)s->out, 0);
      int32_t *idx = want_index ? ic_out(c, (size_t)s->out_index, 0)->data : NULL;
      int64_t r = 0;
      for (int64_t i = 0; i < n_img; i++) {
        image im = {b, sc, per_class, starts ? starts[i] : 0, 0, i, C, M, D};
        for (int64_t k = 0; k < counts[i]; k++, r++) {
          const cand *q = &all[r];
          det_put(o, r * (D + 2), (double)q->label);
          det_put(o, r * (D + 2) + 1, score_of(&im, q->label, q->idx));
          if (D == 4) {
            double bx[4];
            box_of(&im, q->label, q->idx, bx);
            for (int k2 = 0; k2 < 4; k2++) det_put(o, r * (D + 2) + 2 + k2, bx[k2]);
          } else {
            const int64_t off = (i * M + q->idx) * D; /* polygons: shared layout only */
            for (int64_t k2 = 0; k2 < D; k2++) {
              det_put(o, r * (D + 2) + 2 + k2, det_get(b, off + k2));
            }
          }
          if (idx) {
            idx[r] = per_class ? (int32_t)((im.start + q->idx) * C + q->label)
                               : (int32_t)(i * M + q->idx);
          }
        }
      }
    }
  }
  /* The split as LoD: the counts' offsets, or {0, 1} around the lone -1. */
  const bool lone = total == 0 && !want_index;
  const size_t n_off = lone ? 2 : (size_t)n_img + 1;
  for (int k = 0; !st && k < 2; k++) {
    ic_tensor *t = k ? (want_index ? ic_out(c, (size_t)s->out_index, 0) : NULL)
                     : ic_out(c, (size_t)s->out, 0);
    if (!t) continue;
    ic_lod *lod = ic_lod_new(1, &n_off);
    if (lod) {
      lod->offsets[0][0] = 0;
      if (lone) lod->offsets[0][1] = 1;
      for (size_t i = 0; !lone && i < (size_t)n_img; i++) {
        lod->offsets[0][i + 1] = lod->offsets[0][i] + (uint64_t)counts[i];
      }
    }
    st = ic_kset_lod(c, t, lod, true);
  }
  if (!st && s->out_rois_num >= 0 && ic_out(c, (size_t)s->out_rois_num, 0)) {
    st = ic_kalloc_out(c, (size_t)s->out_rois_num, 0, IC_INT32, 1, (int64_t[]){n_img});
    if (!st) {
      int32_t *p = ic_out(c, (size_t)s->out_rois_num, 0)->data;
      for (int64_t i = 0; i < n_img; i++) p[i] = (int32_t)counts[i];
    }
  }
  ic_buffer_release(scratch);
  free(starts);
  return st;
}
