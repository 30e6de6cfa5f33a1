/* retinanet_detection_output (paddle/fluid/operators/detection/
 * retinanet_detection_output_op.cc, Paddle 2.6): per image n of the batch, for each FPN level
 * l (BBoxes[l] [N, Ml, 4] deltas, Scores[l] [N, Ml, C], Anchors[l] [Ml, 4]) the (anchor,
 * class) pairs scoring above score_threshold (above 0 on the last level), best first
 * (stable), the first nms_top_k of them (-1: all), decoded against their anchor without
 * variances (aw = x2 - x1 + 1, acx = x1 + aw / 2, cx = dx * aw + acx, w = exp(dw) * aw, box
 * [cx - w/2, cy - h/2, cx + w/2 - 1, cy + h/2 - 1]), divided by ImInfo's scale and clipped to
 * [0, round(size / scale) - 1]. Then per class a greedy NMS over all levels' boxes (pixel
 * IoU, +1; kept while IoU <= the threshold, which nms_eta < 1 lowers after each kept box
 * while it is above 0.5), and the keep_top_k best of all classes (stable by score). Out
 * [K, 6] rows [class + 1, score, xmin, ymin, xmax, ymax] in descending score, with the
 * images as a one-level LoD; [0, 6] when nothing is kept. Scores are ordered as float32
 * values (Paddle's pairs), boxes computed in the input's precision (float32 or float64).
 * keep_top_k must be >= 0 (Paddle fails on a negative one). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct rdo_attrs {
  float score_threshold, nms_threshold, nms_eta;
  int64_t nms_top_k, keep_top_k;
} rdo_attrs;

enum { IN_BBOXES, IN_SCORES, IN_ANCHORS, IN_IMINFO };
static const ic_slotdef k_inputs[4] = {{"BBoxes", IC_SLOT_MULTI},
                                       {"Scores", IC_SLOT_MULTI},
                                       {"Anchors", IC_SLOT_MULTI},
                                       {"ImInfo", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", IC_SLOT_DYNAMIC}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  rdo_attrs *a = attrs;
  a->score_threshold = (float)ic_ar_float_req(r, "score_threshold");
  a->nms_top_k = ic_ar_int_req(r, "nms_top_k");
  a->nms_threshold = (float)ic_ar_float_req(r, "nms_threshold");
  a->nms_eta = (float)ic_ar_float_req(r, "nms_eta");
  a->keep_top_k = ic_ar_int_req(r, "keep_top_k");
  if (!r->st && a->keep_top_k < 0) {
    ic_ar_fail(r, "keep_top_k", "is %lld, expected >= 0", (long long)a->keep_top_k);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const size_t L = c->in[IN_BBOXES].n;
  if (L == 0 || c->in[IN_SCORES].n != L || c->in[IN_ANCHORS].n != L) {
    return ic_kfail(c, IC_ERR_SHAPE, "retinanet_detection_output needs as many Scores (%zu) and "
                    "Anchors (%zu) as BBoxes (%zu), at least one", c->in[IN_SCORES].n,
                    c->in[IN_ANCHORS].n, L);
  }
  const ic_tensor *s0 = ic_in(c, IN_SCORES, 0), *im = ic_in(c, IN_IMINFO, 0);
  ic_status st = ic_kcheck_dtype(c, IN_SCORES, 0, IC_DT_FLOAT);
  if (st) return st;
  if (s0->ndim != 3) return ic_kfail_in(c, IN_SCORES, 0, "expected [N, M, C]");
  const int64_t N = s0->dims[0], C = s0->dims[2];
  for (size_t l = 0; l < L; l++) {
    const ic_tensor *b = ic_in(c, IN_BBOXES, l), *s = ic_in(c, IN_SCORES, l),
                    *a = ic_in(c, IN_ANCHORS, l);
    for (size_t k = IN_BBOXES; k <= IN_ANCHORS; k++) {
      if (ic_in(c, k, l)->dtype != s0->dtype) return ic_kfail_in(c, k, l, "expected Scores' dtype");
    }
    if (s->ndim != 3 || s->dims[0] != N || s->dims[2] != C) {
      return ic_kfail_in(c, IN_SCORES, l, "expected [%lld, M, %lld]", (long long)N, (long long)C);
    }
    if (b->ndim != 3 || b->dims[0] != N || b->dims[1] != s->dims[1] || b->dims[2] != 4) {
      return ic_kfail_in(c, IN_BBOXES, l, "expected [%lld, %lld, 4]", (long long)N,
                         (long long)s->dims[1]);
    }
    if (a->ndim != 2 || a->dims[0] != s->dims[1] || a->dims[1] != 4) {
      return ic_kfail_in(c, IN_ANCHORS, l, "expected [%lld, 4]", (long long)s->dims[1]);
    }
  }
  if (im->dtype != s0->dtype || im->ndim != 2 || im->dims[0] < N || im->dims[1] < 3) {
    return ic_kfail_in(c, IN_IMINFO, 0, "expected [%lld, 3] of Scores' dtype", (long long)N);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), s0->dtype, 2, (int64_t[]){0, 6});
  return IC_OK;
}

/* A decoded prediction: its box and score in the input's precision (held as double), its
 * class, and the sort keys. */
typedef struct pred {
  double box[4], score;
  float key;   /* the score as float, as Paddle's pairs order it */
  int64_t cls, pos;
} pred;

static int by_key(const void *pa, const void *pb) {
  const pred *a = pa, *b = pb;
  if (a->key != b->key) return a->key > b->key ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}
static int by_class_pos(const void *pa, const void *pb) {
  const pred *a = pa, *b = pb;
  if (a->cls != b->cls) return (a->cls > b->cls) - (a->cls < b->cls);
  return (a->pos > b->pos) - (a->pos < b->pos);
}

#define RDO_DEFINE(SUF, T, EXP)                                                               \
  static T rd_##SUF(const ic_tensor *t, int64_t i) { return ((const T *)t->data)[i]; }        \
  /* Decode level l's candidates of image n into p (returns how many). */                    \
  static int64_t decode_##SUF(ic_kctx *c, const rdo_attrs *a, size_t l, int64_t n, pred *p,   \
                              pred *tmp) {                                                    \
    const ic_tensor *b = ic_in(c, IN_BBOXES, l), *s = ic_in(c, IN_SCORES, l),                 \
                    *an = ic_in(c, IN_ANCHORS, l), *im = ic_in(c, IN_IMINFO, 0);              \
    const int64_t M = s->dims[1], C = s->dims[2];                                             \
    const T thr = l + 1 < c->in[IN_SCORES].n ? (T)a->score_threshold : (T)0;                  \
    int64_t k = 0;                                                                            \
    for (int64_t i = 0; i < M * C; i++) {                                                     \
      const T v = rd_##SUF(s, n * M * C + i);                                                 \
      if (v > thr) {                                                                          \
        tmp[k].score = v;                                                                     \
        tmp[k].key = (float)v;                                                                \
        tmp[k].pos = i;                                                                       \
        k++;                                                                                  \
      }                                                                                       \
    }                                                                                         \
    qsort(tmp, (size_t)k, sizeof *tmp, by_key);                                               \
    if (a->nms_top_k > -1 && a->nms_top_k < k) k = a->nms_top_k;                              \
    const T scale = rd_##SUF(im, n * im->dims[1] + 2);                                        \
    const T ih = (T)round(rd_##SUF(im, n * im->dims[1]) / scale);                             \
    const T iw = (T)round(rd_##SUF(im, n * im->dims[1] + 1) / scale);                         \
    const T zero = 0;                                                                         \
    for (int64_t j = 0; j < k; j++) {                                                         \
      const int64_t idx = tmp[j].pos, ai = idx / C;                                           \
      const T *A = (const T *)an->data + ai * 4;                                              \
      const T *D = (const T *)b->data + (n * M + ai) * 4;                                     \
      const T aw = A[2] - A[0] + 1, ah = A[3] - A[1] + 1;                                     \
      const T acx = A[0] + aw / 2, acy = A[1] + ah / 2;                                       \
      const T cx = D[0] * aw + acx, cy = D[1] * ah + acy;                                     \
      const T w = EXP(D[2]) * aw, h = EXP(D[3]) * ah;                                         \
      T bx[4] = {cx - w / 2, cy - h / 2, cx + w / 2 - 1, cy + h / 2 - 1};                     \
      for (int q = 0; q < 4; q++) {                                                           \
        const T lim = (q % 2 ? ih : iw) - 1;                                                  \
        T v = bx[q] / scale;                                                                  \
        v = lim < v ? lim : v;                                                                \
        v = v < zero ? zero : v;                                                              \
        p[j].box[q] = v;                                                                      \
      }                                                                                       \
      p[j].score = tmp[j].score;                                                              \
      p[j].key = tmp[j].key;                                                                  \
      p[j].cls = idx % C;                                                                     \
    }                                                                                         \
    return k;                                                                                 \
  }                                                                                           \
  static T area_##SUF(const T *b) {                                                           \
    if (b[2] < b[0] || b[3] < b[1]) return (T)0;                                              \
    return (b[2] - b[0] + 1) * (b[3] - b[1] + 1);                                             \
  }                                                                                           \
  static T iou_##SUF(const pred *p, const pred *q) {                                          \
    const T a[4] = {(T)p->box[0], (T)p->box[1], (T)p->box[2], (T)p->box[3]};                  \
    const T b[4] = {(T)q->box[0], (T)q->box[1], (T)q->box[2], (T)q->box[3]};                  \
    if (b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1]) return (T)0;                \
    const T x0 = a[0] < b[0] ? b[0] : a[0], y0 = a[1] < b[1] ? b[1] : a[1];                   \
    const T x1 = b[2] < a[2] ? b[2] : a[2], y1 = b[3] < a[3] ? b[3] : a[3];                   \
    const T iw = x1 - x0 + 1, ih = y1 - y0 + 1;                                               \
    const T inter = iw * ih;                                                                  \
    return inter / (area_##SUF(a) + area_##SUF(b) - inter);                                   \
  }                                                                                           \
  /* Greedy NMS of one class's n predictions (sorted by key), marking keep[]. */              \
  static void nms_##SUF(const pred *p, int64_t n, float nms_thr, float eta, bool *keep,      \
                        int64_t *kept) {                                                      \
    T thr = (T)nms_thr;                                                                       \
    int64_t nk = 0;                                                                           \
    for (int64_t i = 0; i < n; i++) {                                                         \
      bool k = true;                                                                          \
      for (int64_t j = 0; j < nk && k; j++) k = iou_##SUF(&p[i], &p[kept[j]]) <= thr;         \
      keep[i] = k;                                                                            \
      if (k) kept[nk++] = i;                                                                  \
      if (k && (T)eta < 1 && thr > (T)0.5) thr *= (T)eta;                                     \
    }                                                                                         \
  }

RDO_DEFINE(f32, float, expf)
RDO_DEFINE(f64, double, exp)

static ic_status run(ic_kctx *c) {
  const rdo_attrs *a = c->attrs;
  const size_t L = c->in[IN_SCORES].n;
  const ic_tensor *s0 = ic_in(c, IN_SCORES, 0);
  const bool f32 = s0->dtype == IC_FP32;
  const int64_t N = s0->dims[0];
  int64_t cap = 0, maxl = 0;
  for (size_t l = 0; l < L; l++) {
    const int64_t mc = ic_in(c, IN_SCORES, l)->dims[1] * ic_in(c, IN_SCORES, l)->dims[2];
    cap += mc;
    maxl = mc > maxl ? mc : maxl;
  }
  /* per image: preds (cap), a level's candidates (maxl), kept flags and indices (cap),
   * the survivors of every image (N * cap at most, keep_top_k each) */
  const int64_t per_img = cap < a->keep_top_k ? cap : a->keep_top_k;
  const size_t bytes = (size_t)(cap + maxl + N * per_img + 1) * sizeof(pred) +
                       (size_t)(cap + 1) * (sizeof(bool) + sizeof(int64_t));
  ic_buffer *buf = ic_kscratch(c, bytes);
  if (!buf) return c->err->code;
  pred *p = buf->data, *tmp = p + cap, *outp = tmp + maxl;
  int64_t *kept = (int64_t *)(outp + N * per_img + 1);
  bool *keep = (bool *)(kept + cap + 1);
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
    int64_t np = 0;
    for (size_t l = 0; l < L; l++) {
      np += f32 ? decode_f32(c, a, l, n, p + np, tmp) : decode_f64(c, a, l, n, p + np, tmp);
    }
    for (int64_t i = 0; i < np; i++) p[i].pos = i; /* order within each class: appended */
    qsort(p, (size_t)np, sizeof *p, by_class_pos);
    /* each class: stable by key, NMS; survivors collected in class then selection order */
    int64_t ns = 0;
    for (int64_t i = 0; i < np;) {
      int64_t j = i;
      while (j < np && p[j].cls == p[i].cls) j++;
      qsort(p + i, (size_t)(j - i), sizeof *p, by_key); /* pos ascending within the class */
      if (f32) nms_f32(p + i, j - i, a->nms_threshold, a->nms_eta, keep, kept);
      else nms_f64(p + i, j - i, a->nms_threshold, a->nms_eta, keep, kept);
      /* survivors in selection order = sorted order */
      for (int64_t k = i; k < j; k++) {
        if (keep[k - i]) p[ns++] = p[k];
      }
      i = j;
    }
    for (int64_t k = 0; k < ns; k++) p[k].pos = k;
    qsort(p, (size_t)ns, sizeof *p, by_key);
    if (ns > a->keep_top_k) ns = a->keep_top_k;
    memcpy(outp + total, p, (size_t)ns * sizeof *p);
    total += ns;
    off[n + 1] = (uint64_t)total;
  }
  ic_status st = ic_kalloc_out(c, 0, 0, s0->dtype, 2, (int64_t[]){total, 6});
  if (!st) {
    ic_tensor *o = ic_out(c, 0, 0);
    for (int64_t k = 0; k < total; k++) {
      const double row[6] = {(double)(outp[k].cls + 1), outp[k].score, outp[k].box[0],
                             outp[k].box[1], outp[k].box[2], outp[k].box[3]};
      for (int q = 0; q < 6; q++) {
        if (f32) ((float *)o->data)[k * 6 + q] = (float)row[q];
        else ((double *)o->data)[k * 6 + q] = row[q];
      }
    }
    st = ic_kset_lod(c, o, lod, true);
    lod = NULL;
  }
  ic_lod_free(lod);
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_retinanet_detection_output = {
    .name = "retinanet_detection_output", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(rdo_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD, /* Out: the images as LoD */
};
