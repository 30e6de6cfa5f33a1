/* matrix_nms: SOLOv2's Matrix NMS, which decays scores instead of dropping boxes
 * (paddle/phi/kernels/cpu/matrix_nms_kernel.cc, MatrixNMSInferMeta).
 *
 * BBoxes [N, M, 4], Scores [N, C, M]. Per image and class c other than background_label: the
 * boxes scoring > score_threshold, best first, the first nms_top_k of them (-1: all). Box i
 * (in that order) gets decay min over earlier j of f(iou(i, j), max_iou(j)), where max_iou(j)
 * is j's largest IoU with the boxes before it and f is exp((max^2 - iou^2) * gaussian_sigma)
 * with use_gaussian, else (1 - iou) / (1 - max); the first box keeps its score. Boxes whose
 * decayed score is <= post_threshold are dropped. The image's detections of all classes are
 * then ordered by decayed score (best first) and cut to keep_top_k (-1: all).
 * Out rows are [label, decayed score, x0, y0, x1, y1] (K x 6, all images one after another);
 * Index (int32 [K, 1]) is n * M + m; RoisNum (int32 [N]) counts the rows per image.
 * Both orderings are std::partial_sort's in Paddle (of the candidates in box order, and of
 * the detections in class-then-selection order), which is not stable; equal scores come out
 * where libstdc++'s heap select puts them (stdsort.h), as in Paddle. */
#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/detection.h"
#include "kernels/cpu/stdsort.h"

typedef struct mn_attrs {
  double score_threshold, post_threshold, sigma;
  int64_t nms_top_k, keep_top_k, background;
  bool gaussian, normalized;
} mn_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mn_attrs *a = attrs;
  a->score_threshold = (float)ic_ar_float_req(r, "score_threshold");
  a->post_threshold = (float)ic_ar_float(r, "post_threshold", 0.0);
  a->nms_top_k = ic_ar_int_req(r, "nms_top_k");
  a->keep_top_k = ic_ar_int_req(r, "keep_top_k");
  a->gaussian = ic_ar_bool(r, "use_gaussian", false);
  a->sigma = (float)ic_ar_float(r, "gaussian_sigma", 2.0);
  a->background = ic_ar_int(r, "background_label", 0);
  a->normalized = ic_ar_bool(r, "normalized", true);
  return r->st;
}

enum { IN_BBOXES, IN_SCORES };
enum { OUT_OUT, OUT_INDEX, OUT_ROISNUM };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *b = ic_in(c, IN_BBOXES, 0), *s = ic_in(c, IN_SCORES, 0);
  ic_status st = ic_kcheck_dtype(c, IN_SCORES, 0, IC_DT_FLOAT);
  if (st) return st;
  if (b->dtype != s->dtype) return ic_kfail_in(c, IN_BBOXES, 0, "expected Scores' dtype");
  if (s->ndim != 3) return ic_kfail_in(c, IN_SCORES, 0, "expected rank 3 [N, C, M]");
  if (b->ndim != 3 || b->dims[2] != 4 || b->dims[0] != s->dims[0] || b->dims[1] != s->dims[2]) {
    return ic_kfail_in(c, IN_BBOXES, 0, "expected [%lld, %lld, 4] to match Scores [N, C, M]",
                       (long long)s->dims[0], (long long)s->dims[2]);
  }
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), s->dtype, 2, (int64_t[]){0, 6});
  if (ic_out(c, OUT_INDEX, 0)) {
    ic_tensor_set_meta(ic_out(c, OUT_INDEX, 0), IC_INT32, 2, (int64_t[]){0, 1});
  }
  if (ic_out(c, OUT_ROISNUM, 0)) {
    ic_tensor_set_meta(ic_out(c, OUT_ROISNUM, 0), IC_INT32, 1, (int64_t[]){0});
  }
  return IC_OK;
}

typedef struct mdet {
  double score;
  int64_t label, idx, pos;
} mdet;

/* Paddle's comparator: a higher score goes first. */
static bool higher(const void *ctx, int64_t i, int64_t j) {
  const mdet *d = ctx;
  return d[i].score > d[j].score;
}

/* The first k of d[0, n) in std::partial_sort's order (perm, tmp: n scratch each). */
static void partial_sort_dets(mdet *d, int64_t k, int64_t n, int64_t *perm, mdet *tmp) {
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  ic_std_partial_sort(perm, k, n, higher, d);
  for (int64_t i = 0; i < k; i++) tmp[i] = d[perm[i]];
  for (int64_t i = 0; i < k; i++) d[i] = tmp[i];
}

DET_DEFINE_IOU(iou_f32, float)
DET_DEFINE_IOU(iou_f64, double)

/* One image: its detections, in output order, into out; returns how many. */
static int64_t image(const mn_attrs *a, const ic_tensor *b, const ic_tensor *s, int64_t n,
                     mdet *cand, double *iou, double *maxiou, mdet *out, int64_t *perm,
                     mdet *tmp) {
  const int64_t C = s->dims[1], M = s->dims[2];
  const bool f32 = s->dtype == IC_FP32;
  double (*iou_fn)(const double *, const double *, bool) = f32 ? iou_f32 : iou_f64;
  int64_t nd = 0;
  for (int64_t c = 0; c < C; c++) {
    if (c == a->background) continue;
    int64_t np = 0;
    for (int64_t m = 0; m < M; m++) {
      double sc = det_get(s, (n * C + c) * M + m);
      if (sc > a->score_threshold) cand[np++] = (mdet){sc, c, m, m};
    }
    if (np == 0) continue;
    const int64_t all = np;
    if (a->nms_top_k > -1 && np > a->nms_top_k) np = a->nms_top_k;
    partial_sort_dets(cand, np, all, perm, tmp);
    for (int64_t i = 0; i < np; i++) {
      double bi[4];
      for (int q = 0; q < 4; q++) bi[q] = det_get(b, (n * M + cand[i].idx) * 4 + q);
      double mx = 0;
      for (int64_t j = 0; j < i; j++) {
        double bj[4];
        for (int q = 0; q < 4; q++) bj[q] = det_get(b, (n * M + cand[j].idx) * 4 + q);
        double v = iou_fn(bi, bj, a->normalized);
        iou[i * (i - 1) / 2 + j] = v;
        mx = mx > v ? mx : v;
      }
      maxiou[i] = mx;
    }
    if (cand[0].score > a->post_threshold) {
      out[nd] = (mdet){cand[0].score, c, cand[0].idx, nd};
      nd++;
    }
    for (int64_t i = 1; i < np; i++) {
      double dmin = 1;
      for (int64_t j = 0; j < i; j++) {
        double v = iou[i * (i - 1) / 2 + j], mj = maxiou[j], d;
        if (a->gaussian) d = exp((mj * mj - v * v) * a->sigma);
        else d = (1. - v) / (1. - mj);
        if (f32) d = (float)d;
        dmin = dmin < d ? dmin : d;
      }
      double ds = dmin * cand[i].score;
      if (f32) ds = (float)ds;
      if (ds <= a->post_threshold) continue;
      out[nd] = (mdet){ds, c, cand[i].idx, nd};
      nd++;
    }
  }
  const int64_t all = nd;
  if (a->keep_top_k > -1 && nd > a->keep_top_k) nd = a->keep_top_k;
  partial_sort_dets(out, nd, all, perm, tmp);
  return nd;
}

static ic_status run(ic_kctx *c) {
  const mn_attrs *a = c->attrs;
  const ic_tensor *b = ic_in(c, IN_BBOXES, 0), *s = ic_in(c, IN_SCORES, 0);
  const int64_t N = s->dims[0], C = s->dims[1], M = s->dims[2];
  const int64_t kc = a->nms_top_k > -1 && a->nms_top_k < M ? a->nms_top_k : M;
  /* candidates (M), IoU triangle and row maxima (kc), detections (C * kc per image) */
  const size_t n_iou = (size_t)(kc * (kc > 0 ? kc - 1 : 0) / 2) + 1;
  const size_t n_det = (size_t)(N * C * kc) + 1;
  /* perm and tmp: the larger of a class's candidates (M) and an image's detections (C * kc) */
  const size_t n_perm = (size_t)(M > C * kc ? M : C * kc) + 1;
  const double bytes = ((double)M + 1 + (double)n_det + (double)n_perm) * sizeof(mdet) +
                       ((double)n_iou + (double)kc + 1) * sizeof(double) +
                       ((double)N + 1 + (double)n_perm) * sizeof(int64_t);
  if (bytes > 1e10) {
    return ic_kfail_in(c, IN_SCORES, 0, "needs %.3g bytes of scratch; lower nms_top_k", bytes);
  }
  ic_buffer *scr = ic_kscratch(c, (size_t)bytes);
  if (!scr) return c->err->code;
  mdet *cand = scr->data, *dets = cand + M + 1;
  double *iou = (double *)(dets + n_det), *maxiou = iou + n_iou;
  int64_t *counts = (int64_t *)(maxiou + kc + 1), *perm = counts + N + 1;
  mdet *tmp = (mdet *)(perm + n_perm);
  int64_t total = 0;
  for (int64_t n = 0; n < N; n++) {
    counts[n] = image(a, b, s, n, cand, iou, maxiou, dets + total, perm, tmp);
    total += counts[n];
  }
  ic_status st = ic_kalloc_out(c, OUT_OUT, 0, s->dtype, 2, (int64_t[]){total, 6});
  if (!st) st = ic_kalloc_out(c, OUT_INDEX, 0, IC_INT32, 2, (int64_t[]){total, 1});
  if (!st) st = ic_kalloc_out(c, OUT_ROISNUM, 0, IC_INT32, 1, (int64_t[]){N});
  if (!st) {
    ic_tensor *o = ic_out(c, OUT_OUT, 0), *ix = ic_out(c, OUT_INDEX, 0),
              *rn = ic_out(c, OUT_ROISNUM, 0);
    int64_t r = 0;
    for (int64_t n = 0; n < N; n++) {
      for (int64_t k = 0; k < counts[n]; k++, r++) {
        const mdet *d = &dets[r];
        det_put(o, r * 6, (double)d->label);
        det_put(o, r * 6 + 1, d->score);
        for (int q = 0; q < 4; q++) det_put(o, r * 6 + 2 + q, det_get(b, (n * M + d->idx) * 4 + q));
        if (ix) ((int32_t *)ix->data)[r] = (int32_t)(n * M + d->idx);
      }
      if (rn) ((int32_t *)rn->data)[n] = (int32_t)counts[n];
    }
  }
  ic_buffer_release(scr);
  return st;
}

static const ic_slotdef inputs[] = {{"BBoxes", 0}, {"Scores", 0}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_DYNAMIC},
                                     {"Index", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC},
                                     {"RoisNum", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_matrix_nms = {
    .name = "matrix_nms",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(mn_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
