/* locality_aware_nms (EAST's NMS; paddle/fluid/operators/detection/locality_aware_nms_op.cc,
 * Paddle 2.6). BBoxes [N, M, D] (D = 4: [xmin, ymin, xmax, ymax]; polygons below), Scores
 * [N, C, M], float32 or float64 (computed in that precision). Per image, on one working copy
 * of its boxes and scores, for each class c other than background_label (default -1: none),
 * in class order:
 *   1. locality merge over the boxes in index order: a running box absorbs each next box
 *      whose IoU with it is > nms_threshold (box = (b_i * s_i + box * s) / (s_i + s), the
 *      score s += s_i, both written back into the working copy, boxes shared by all later
 *      classes); otherwise the next box becomes the running one;
 *   2. the running boxes left (one per merged run) scoring > score_threshold, best first
 *      (stable, scores compared as float32 as Paddle's pairs do), the first nms_top_k (-1:
 *      all);
 *   3. greedy NMS: kept while IoU with every kept box is <= the threshold (nms_threshold,
 *      multiplied by nms_eta after each kept box while eta < 1 and it is above 0.5).
 * With keep_top_k > -1 and more survivors, the keep_top_k best (stable by score) are kept.
 * Out rows [class, score, box] (D + 2 values) by ascending class, each class's in NMS order, the score and
 * box read from the working copy after all classes ran; the images as a one-level LoD. When
 * nothing is kept at all, Out is [[-1]] with LoD {0, 1}. IoU is normalized (default) or in
 * pixels (+1).
 *
 * Polygon boxes (D = 8, 16, 24 or 32: 4 to 16 points [x1, y1, x2, y2, ...]) use Paddle's
 * PolyIoU (polyiou.c: exact for simple polygons, where Paddle's gpc clipping agrees with it
 * up to the last bits). A polygon whose edges cross or touch (not simple, where gpc's
 * even-odd filling differs) is refused. Such boxes ignore `normalized`, as Paddle does. */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/polyiou.h"
#include "kernels/kernel.h"

typedef struct lanms_attrs {
  int64_t background_label, nms_top_k, keep_top_k;
  float score_threshold, nms_threshold, nms_eta;
  bool normalized;
} lanms_attrs;

enum { IN_BBOXES, IN_SCORES };
static const ic_slotdef k_inputs[2] = {{"BBoxes", 0}, {"Scores", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", IC_SLOT_DYNAMIC}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lanms_attrs *a = attrs;
  a->background_label = ic_ar_int(r, "background_label", -1);
  a->score_threshold = (float)ic_ar_float_req(r, "score_threshold");
  a->nms_top_k = ic_ar_int_req(r, "nms_top_k");
  a->nms_threshold = (float)ic_ar_float(r, "nms_threshold", 0.3);
  a->nms_eta = (float)ic_ar_float(r, "nms_eta", 1.0);
  a->keep_top_k = ic_ar_int_req(r, "keep_top_k");
  a->normalized = ic_ar_bool(r, "normalized", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *b = ic_in(c, IN_BBOXES, 0), *s = ic_in(c, IN_SCORES, 0);
  ic_status st = ic_kcheck_dtype(c, IN_SCORES, 0, IC_DT_FLOAT);
  if (st) return st;
  if (b->dtype != s->dtype) return ic_kfail_in(c, IN_BBOXES, 0, "expected Scores' dtype");
  if (s->ndim != 3) return ic_kfail_in(c, IN_SCORES, 0, "expected [N, C, M]");
  if (b->ndim != 3) return ic_kfail_in(c, IN_BBOXES, 0, "expected [N, M, D]");
  const int64_t d = b->dims[2];
  if (!(d == 4 || d == 8 || d == 16 || d == 24 || d == 32) || b->dims[0] != s->dims[0] ||
      b->dims[1] != s->dims[2]) {
    return ic_kfail_in(c, IN_BBOXES, 0,
                       "expected [%lld, %lld, D] (D 4, 8, 16, 24 or 32) to match Scores [N, C, M]",
                       (long long)s->dims[0], (long long)s->dims[2]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), s->dtype, 2, (int64_t[]){0, d + 2});
  return IC_OK;
}

/* A selected box: class, index, and the float32 sort key; pos for stability. */
typedef struct sel {
  int64_t cls, idx, pos;
  float key;
} sel;

static int by_key(const void *pa, const void *pb) {
  const sel *a = pa, *b = pb;
  if (a->key != b->key) return a->key > b->key ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}
static int by_cls_pos(const void *pa, const void *pb) {
  const sel *a = pa, *b = pb;
  if (a->cls != b->cls) return (a->cls > b->cls) - (a->cls < b->cls);
  return (a->pos > b->pos) - (a->pos < b->pos);
}

#define LANMS_DEFINE(SUF, T)                                                                  \
  static T iou_##SUF(const T *a, const T *b, bool normalized) {                               \
    if (b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1]) return (T)0;                \
    const T norm = normalized ? (T)0 : (T)1;                                                  \
    const T x0 = a[0] < b[0] ? b[0] : a[0], y0 = a[1] < b[1] ? b[1] : a[1];                   \
    const T x1 = b[2] < a[2] ? b[2] : a[2], y1 = b[3] < a[3] ? b[3] : a[3];                   \
    const T iw = x1 - x0 + norm, ih = y1 - y0 + norm;                                         \
    const T inter = iw * ih;                                                                  \
    T aa = 0, ab = 0;                                                                         \
    if (!(a[2] < a[0] || a[3] < a[1])) {                                                      \
      const T w = a[2] - a[0], h = a[3] - a[1];                                               \
      aa = normalized ? w * h : (w + 1) * (h + 1);                                            \
    }                                                                                         \
    if (!(b[2] < b[0] || b[3] < b[1])) {                                                      \
      const T w = b[2] - b[0], h = b[3] - b[1];                                               \
      ab = normalized ? w * h : (w + 1) * (h + 1);                                            \
    }                                                                                         \
    return inter / (aa + ab - inter);                                                         \
  }                                                                                           \
  static T overlap_##SUF(const T *a, const T *b, int D, bool normalized, bool *bad) {         \
    return D == 4 ? iou_##SUF(a, b, normalized) : ic_poly_iou_##SUF(a, b, D, bad);            \
  }                                                                                           \
  /* One image: B [M, D] and S [C, M] working copies; selections appended to out (returns     \
   * how many, or -1 when a polygon crosses itself). */                                      \
  static int64_t image_##SUF(const lanms_attrs *a, T *B, T *S, int64_t C, int64_t M, int D, \
                             bool *skip, sel *cand, int64_t *kept, sel *out) {               \
    bool bad = false;                                                                         \
    const T nms_thr = (T)a->nms_threshold, eta = (T)a->nms_eta;                               \
    const T score_thr = (T)a->score_threshold;                                                \
    int64_t n = 0;                                                                            \
    for (int64_t c = 0; c < C; c++) {                                                         \
      if (c == a->background_label) continue;                                                 \
      T *s = S + c * M;                                                                       \
      int64_t run = -1;                                                                       \
      for (int64_t i = 0; i < M; i++) skip[i] = true;                                         \
      for (int64_t i = 0; i < M; i++) {                                                       \
        if (run > -1) {                                                                       \
          const T ov = overlap_##SUF(B + i * D, B + run * D, D, a->normalized, &bad);          \
          if (bad) return -1;                                                                 \
          if (ov > nms_thr) {                                                                 \
            for (int q = 0; q < D; q++) {                                                     \
              B[run * D + q] = (B[i * D + q] * s[i] + B[run * D + q] * s[run]) / (s[i] + s[run]); \
            }                                                                                 \
            s[run] += s[i];                                                                   \
          } else {                                                                            \
            skip[run] = false;                                                                \
            run = i;                                                                          \
          }                                                                                   \
        } else {                                                                              \
          run = i;                                                                            \
        }                                                                                     \
      }                                                                                       \
      if (run > -1) skip[run] = false;                                                        \
      int64_t k = 0;                                                                          \
      for (int64_t i = 0; i < M; i++) {                                                       \
        if (s[i] > score_thr && !skip[i]) {                                                   \
          cand[k].idx = i;                                                                    \
          cand[k].key = (float)s[i];                                                          \
          cand[k].pos = i;                                                                    \
          k++;                                                                                \
        }                                                                                     \
      }                                                                                       \
      qsort(cand, (size_t)k, sizeof *cand, by_key);                                           \
      if (a->nms_top_k > -1 && a->nms_top_k < k) k = a->nms_top_k;                            \
      T thr = nms_thr;                                                                        \
      int64_t nk = 0;                                                                         \
      for (int64_t j = 0; j < k; j++) {                                                       \
        const int64_t idx = cand[j].idx;                                                      \
        bool keep = true;                                                                     \
        for (int64_t q = 0; q < nk && keep; q++) {                                            \
          keep = overlap_##SUF(B + idx * D, B + kept[q] * D, D, a->normalized, &bad) <= thr;  \
        }                                                                                     \
        if (bad) return -1;                                                                   \
        if (keep) {                                                                           \
          kept[nk++] = idx;                                                                   \
          out[n].cls = c;                                                                     \
          out[n].idx = idx;                                                                   \
          out[n].pos = n;                                                                     \
          out[n].key = (float)s[idx];                                                         \
          n++;                                                                                \
        }                                                                                     \
        if (keep && eta < 1 && thr > (T)0.5) thr *= eta;                                      \
      }                                                                                       \
    }                                                                                         \
    if (a->keep_top_k > -1 && n > a->keep_top_k) {                                            \
      qsort(out, (size_t)n, sizeof *out, by_key);                                             \
      n = a->keep_top_k;                                                                      \
      for (int64_t j = 0; j < n; j++) out[j].pos = j;                                         \
      qsort(out, (size_t)n, sizeof *out, by_cls_pos);                                         \
    }                                                                                         \
    return n;                                                                                 \
  }

LANMS_DEFINE(f32, float)
LANMS_DEFINE(f64, double)

static ic_status run(ic_kctx *c) {
  const lanms_attrs *a = c->attrs;
  const ic_tensor *b = ic_in(c, IN_BBOXES, 0), *s = ic_in(c, IN_SCORES, 0);
  const bool f32 = s->dtype == IC_FP32;
  const size_t es = f32 ? sizeof(float) : sizeof(double);
  const int64_t N = s->dims[0], C = s->dims[1], M = s->dims[2];
  const int D = (int)b->dims[2];
  const int64_t per_img = C * M;
  /* working copies, skip flags, candidates, kept, selections, rows of every image */
  const size_t bytes = (size_t)(M * D + C * M) * es + (size_t)(M + 1) * sizeof(bool) +
                       (size_t)(M + 1) * (sizeof(sel) + sizeof(int64_t)) +
                       (size_t)(per_img + 1) * sizeof(sel) +
                       (size_t)(N * per_img + 1) * (size_t)(D + 2) * sizeof(double);
  ic_buffer *buf = ic_kscratch(c, bytes);
  if (!buf) return c->err->code;
  double *rows = buf->data;
  sel *outs = (sel *)(rows + (N * per_img + 1) * (D + 2)), *cand = outs + per_img + 1;
  int64_t *kept = (int64_t *)(cand + M + 1);
  char *W = (char *)(kept + M + 1);
  void *B = W, *S = W + (size_t)M * D * es;
  bool *skip = (bool *)(W + (size_t)(M * D + C * M) * es);
  size_t nlod = (size_t)N + 1;
  ic_lod *lod = ic_lod_new(1, &nlod);
  if (!lod) {
    ic_buffer_release(buf);
    return ic_kset_lod(c, ic_out(c, 0, 0), NULL, true);
  }
  uint64_t *off = lod->offsets[0];
  off[0] = 0;
  int64_t total = 0;
  for (int64_t n = 0; n < N; n++) {
    memcpy(B, (const char *)b->data + (size_t)(n * M * D) * es, (size_t)(M * D) * es);
    memcpy(S, (const char *)s->data + (size_t)(n * C * M) * es, (size_t)(C * M) * es);
    const int64_t k = f32 ? image_f32(a, B, S, C, M, D, skip, cand, kept, outs)
                          : image_f64(a, B, S, C, M, D, skip, cand, kept, outs);
    if (k < 0) {
      ic_lod_free(lod);
      ic_buffer_release(buf);
      return ic_kfail(c, IC_ERR_UNSUPPORTED, "input BBoxes '%s' of image %lld holds a polygon "
                      "whose edges cross or touch; its overlap (Paddle's gpc clipping, "
                      "even-odd) is not supported", ic_in_name(c, IN_BBOXES, 0), (long long)n);
    }
    for (int64_t j = 0; j < k; j++) {
      double *r = rows + (total + j) * (D + 2);
      const int64_t cl = outs[j].cls, ix = outs[j].idx;
      r[0] = (double)cl;
      r[1] = f32 ? ((const float *)S)[cl * M + ix] : ((const double *)S)[cl * M + ix];
      for (int q = 0; q < D; q++) {
        r[2 + q] = f32 ? ((const float *)B)[ix * D + q] : ((const double *)B)[ix * D + q];
      }
    }
    total += k;
    off[n + 1] = (uint64_t)total;
  }
  ic_status st;
  if (total == 0) {
    ic_lod_free(lod);
    const size_t two = 2;
    lod = ic_lod_new(1, &two);
    if (!lod) {
      ic_buffer_release(buf);
      return ic_kset_lod(c, ic_out(c, 0, 0), NULL, true);
    }
    lod->offsets[0][0] = 0;
    lod->offsets[0][1] = 1;
    st = ic_kalloc_out(c, 0, 0, s->dtype, 2, (int64_t[]){1, 1});
    if (!st) {
      if (f32) ((float *)ic_out(c, 0, 0)->data)[0] = -1;
      else ((double *)ic_out(c, 0, 0)->data)[0] = -1;
    }
  } else {
    st = ic_kalloc_out(c, 0, 0, s->dtype, 2, (int64_t[]){total, D + 2});
    if (!st) {
      ic_tensor *o = ic_out(c, 0, 0);
      for (int64_t j = 0; j < total * (D + 2); j++) {
        if (f32) ((float *)o->data)[j] = (float)rows[j];
        else ((double *)o->data)[j] = rows[j];
      }
    }
  }
  if (!st) {
    st = ic_kset_lod(c, ic_out(c, 0, 0), lod, true);
    lod = NULL;
  }
  ic_lod_free(lod);
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_locality_aware_nms = {
    .name = "locality_aware_nms", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(lanms_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD, /* Out: the images as LoD */
};
