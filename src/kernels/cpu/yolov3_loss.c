/* yolov3_loss (fluid.layers.yolov3_loss, paddle.vision.ops.yolo_loss; phi YoloLossKernel):
 * YOLOv3's loss per image. X [N, mask_num * (5 + class_num), H, W] holds, for each of the
 * anchors anchor_mask selects from `anchors` (pairs w, h in pixels), the raw tx, ty, tw, th,
 * objectness and class logits; GTBox [N, B, 4] the ground truths (cx, cy, w, h relative to
 * the image, w or h below 1e-6: no box), GTLabel [N, B] int32 their classes, GTScore [N, B]
 * (optional, default 1) their mixup scores. With the input size downsample_ratio * H and
 * sce(x, l) = max(x, 0) - x l + log(1 + e^-|x|):
 *   - every predicted box (sigmoid(tx) * scale_x_y + bias + column) / H, ..., e^tw *
 *     anchor_w / input size, ... whose best IoU with a ground truth exceeds ignore_thresh
 *     marks its ObjectnessMask -1 (ignored);
 *   - each ground truth takes the anchor (of all `anchors`, centred) of largest IoU; when
 *     anchor_mask holds it, at the cell (int(cx W), int(cy H)) it adds, times
 *     (2 - w h) * score, sce(tx, cx W - gi) + sce(ty, cy H - gj) + |tw - log(w in / aw)| +
 *     |th - log(h in / ah)|, plus score * sce(class logit, label smoothing pos or neg) for
 *     every class, and sets the mask there to its score; GTMatchMask [N, B] int32 holds the
 *     anchor's place in anchor_mask (-1: not there, or no box);
 *   - objectness: sce(logit, 1) * mask where the mask is > 1e-5, sce(logit, 0) where it is
 *     0 (not -1).
 * use_label_smooth (default true) puts positives at 1 - w and negatives at w, w = min(1 /
 * class_num, 1 / 40). Loss [N]; ObjectnessMask [N, mask_num, H, W]. float32 or float64, the
 * arithmetic as Paddle's (its double constants promote where they do). */
#include <math.h>
#include <string.h>

#include "kernels/cpu/yolov3_loss.h"

enum { IN_X, IN_BOX, IN_LABEL, IN_SCORE };
enum { OUT_LOSS, OUT_OBJ, OUT_MATCH };

ic_status ic_yolo_parse(ic_attr_reader *r, void *attrs) {
  ic_yolo_attrs *a = attrs;
  const int64_t *an, *mk;
  size_t nan = 0, nmk = 0;
  ic_ar_ints(r, "anchors", true, &an, &nan);
  ic_ar_ints(r, "anchor_mask", true, &mk, &nmk);
  a->class_num = ic_ar_int_req(r, "class_num");
  a->ignore_thresh = (float)ic_ar_float(r, "ignore_thresh", 0.7);
  a->downsample = ic_ar_int(r, "downsample_ratio", 32);
  a->label_smooth = ic_ar_bool(r, "use_label_smooth", true);
  a->scale_x_y = (float)ic_ar_float(r, "scale_x_y", 1.0);
  if (r->st) return r->st;
  if (nan == 0 || nan % 2 || nan / 2 > IC_YOLO_MAX_ANCHORS) {
    return ic_ar_fail(r, "anchors", "has %zu values, expected an even count up to %d", nan,
                      2 * IC_YOLO_MAX_ANCHORS);
  }
  a->an_num = (int)(nan / 2);
  for (size_t i = 0; i < nan; i++) {
    if (an[i] <= 0) return ic_ar_fail(r, "anchors", "holds %lld, expected sizes > 0", (long long)an[i]);
    a->anchors[i] = (int32_t)an[i];
  }
  if (nmk == 0 || nmk > (size_t)a->an_num) {
    return ic_ar_fail(r, "anchor_mask", "has %zu values, expected 1 to %d", nmk, a->an_num);
  }
  a->mask_num = (int)nmk;
  for (size_t i = 0; i < nmk; i++) {
    if (mk[i] < 0 || mk[i] >= a->an_num) {
      return ic_ar_fail(r, "anchor_mask", "holds %lld, expected anchor indices in [0, %d)",
                        (long long)mk[i], a->an_num);
    }
    a->mask[i] = (int32_t)mk[i];
  }
  if (a->class_num <= 0) {
    return ic_ar_fail(r, "class_num", "is %lld, expected > 0", (long long)a->class_num);
  }
  if (a->downsample <= 0) {
    return ic_ar_fail(r, "downsample_ratio", "is %lld, expected > 0", (long long)a->downsample);
  }
  return IC_OK;
}

ic_status ic_yolo_check(ic_kctx *c, size_t xs, int64_t *b) {
  const ic_yolo_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, xs, 0), *box = ic_in(c, xs + 1, 0);
  const ic_tensor *lab = ic_in(c, xs + 2, 0), *sc = ic_in(c, xs + 3, 0);
  if (ic_kcheck_dtype(c, xs, 0, IC_DT_FLOAT)) return c->err->code;
  const int64_t ch = a->mask_num * (5 + a->class_num);
  if (x->ndim != 4 || x->dims[1] != ch || x->dims[2] != x->dims[3]) {
    return ic_kfail_in(c, xs, 0, "expected [N, %lld, H, H] (anchor_mask's %d anchors x (5 + "
                                 "class_num %lld), a square grid)",
                       (long long)ch, a->mask_num, (long long)a->class_num);
  }
  if (box->dtype != x->dtype || box->ndim != 3 || box->dims[0] != x->dims[0] ||
      box->dims[2] != 4) {
    return ic_kfail_in(c, xs + 1, 0, "expected %s[%lld, boxes, 4]", ic_dtype_name(x->dtype),
                       (long long)x->dims[0]);
  }
  *b = box->dims[1];
  const int64_t want[2] = {x->dims[0], *b};
  char d[64];
  if (lab->dtype != IC_INT32 || !ic_dims_equal(lab->ndim, lab->dims, 2, want)) {
    return ic_kfail_in(c, xs + 2, 0, "expected int32%s", ic_dims_str(2, want, d, sizeof d));
  }
  if (sc && (sc->dtype != x->dtype || !ic_dims_equal(sc->ndim, sc->dims, 2, want))) {
    return ic_kfail_in(c, xs + 3, 0, "expected %s%s", ic_dtype_name(x->dtype),
                       ic_dims_str(2, want, d, sizeof d));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_yolo_attrs *a = c->attrs;
  int64_t b;
  if (ic_yolo_check(c, IN_X, &b)) return c->err->code;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor_set_meta(ic_out(c, OUT_LOSS, 0), x->dtype, 1, x->dims);
  ic_tensor *om = ic_out(c, OUT_OBJ, 0), *gm = ic_out(c, OUT_MATCH, 0);
  if (om) {
    ic_tensor_set_meta(om, x->dtype, 4, (int64_t[]){x->dims[0], a->mask_num, x->dims[2], x->dims[3]});
  }
  if (gm) ic_tensor_set_meta(gm, IC_INT32, 2, (int64_t[]){x->dims[0], b});
  return IC_OK;
}

/* One implementation per dtype; T's arithmetic with Paddle's double constants. */
#define DEFINE_YOLO(T, SUF, EXP, LOG)                                                          \
  typedef struct box_##SUF { T x, y, w, h; } box_##SUF;                                        \
  static T sig_##SUF(T v) { return (T)(1.0 / (1.0 + EXP(-v))); }                              \
  static T sce_##SUF(T v, T l) {                                                               \
    return (T)((v > 0 ? (double)v : 0.0) - (double)(v * l) + log(1.0 + (double)EXP(-(v < 0 ? -v : v)))); \
  }                                                                                            \
  static T overlap_##SUF(T c1, T w1, T c2, T w2) {                                             \
    const T l1 = (T)(c1 - w1 / 2.0), l2 = (T)(c2 - w2 / 2.0);                                  \
    const T r1 = (T)(c1 + w1 / 2.0), r2 = (T)(c2 + w2 / 2.0);                                  \
    return (r1 < r2 ? r1 : r2) - (l1 > l2 ? l1 : l2);                                          \
  }                                                                                            \
  static T iou_##SUF(box_##SUF p, box_##SUF q) {                                               \
    const T w = overlap_##SUF(p.x, p.w, q.x, q.w), h = overlap_##SUF(p.y, p.h, q.y, q.h);       \
    const T inter = (w < 0 || h < 0) ? (T)0 : w * h;                                           \
    return inter / (p.w * p.h + q.w * q.h - inter);                                            \
  }                                                                                            \
  static void loss_##SUF(const ic_yolo_attrs *a, const T *x, const T *gt, const int32_t *lab, \
                         const T *gs, T *loss, T *obj, int32_t *match, int64_t n, int64_t b,   \
                         int64_t h, int64_t w) {                                               \
    const int64_t stride = h * w, an_stride = (a->class_num + 5) * stride;                     \
    const int64_t in_size = a->downsample * h;                                                 \
    const float scale = (float)a->scale_x_y, bias = (float)(-0.5 * (scale - 1.0));             \
    T pos = 1, neg = 0;                                                                        \
    if (a->label_smooth) {                                                                     \
      const T sw = (T)fmin(1.0 / (double)(T)a->class_num, 1.0 / 40);                           \
      pos = (T)(1.0 - sw);                                                                     \
      neg = sw;                                                                                \
    }                                                                                          \
    memset(loss, 0, (size_t)n * sizeof(T));                                                    \
    memset(obj, 0, (size_t)(n * a->mask_num * stride) * sizeof(T));                            \
    for (int64_t i = 0; i < n; i++) {                                                          \
      const T *g = gt + i * b * 4;                                                             \
      for (int64_t j = 0; j < a->mask_num; j++) {                                              \
        const int an = a->mask[j];                                                             \
        for (int64_t k = 0; k < h; k++) {                                                      \
          for (int64_t l = 0; l < w; l++) {                                                    \
            const int64_t bi = (i * a->mask_num + j) * an_stride + k * w + l;                  \
            box_##SUF p;                                                                       \
            p.x = (T)((l + sig_##SUF(x[bi]) * scale + bias) / (T)h);                           \
            p.y = (T)((k + sig_##SUF(x[bi + stride]) * scale + bias) / (T)h);                  \
            p.w = EXP(x[bi + 2 * stride]) * a->anchors[2 * an] / (T)in_size;                   \
            p.h = EXP(x[bi + 3 * stride]) * a->anchors[2 * an + 1] / (T)in_size;               \
            T best = 0;                                                                        \
            for (int64_t t = 0; t < b; t++) {                                                  \
              if (g[t * 4 + 2] < 1e-6 || g[t * 4 + 3] < 1e-6) continue;                        \
              const box_##SUF q = {g[t * 4], g[t * 4 + 1], g[t * 4 + 2], g[t * 4 + 3]};        \
              const T v = iou_##SUF(p, q);                                                     \
              if (v > best) best = v;                                                          \
            }                                                                                  \
            if (best > a->ignore_thresh) obj[(i * a->mask_num + j) * stride + k * w + l] = -1; \
          }                                                                                    \
        }                                                                                      \
      }                                                                                        \
      for (int64_t t = 0; t < b; t++) {                                                        \
        if (g[t * 4 + 2] < 1e-6 || g[t * 4 + 3] < 1e-6) {                                      \
          match[i * b + t] = -1;                                                               \
          continue;                                                                            \
        }                                                                                      \
        const box_##SUF q = {g[t * 4], g[t * 4 + 1], g[t * 4 + 2], g[t * 4 + 3]};               \
        const int gi = (int)(q.x * w), gj = (int)(q.y * h);                                    \
        const box_##SUF qs = {0, 0, q.w, q.h};                                                 \
        T best = 0;                                                                            \
        int best_n = 0;                                                                        \
        for (int an = 0; an < a->an_num; an++) {                                               \
          const box_##SUF ab = {0, 0, a->anchors[2 * an] / (T)in_size,                         \
                                a->anchors[2 * an + 1] / (T)in_size};                          \
          const float v = (float)iou_##SUF(ab, qs);                                            \
          if (v > best) best = v, best_n = an;                                                 \
        }                                                                                      \
        int mi = -1;                                                                           \
        for (int m = 0; m < a->mask_num && mi < 0; m++) mi = a->mask[m] == best_n ? m : -1;    \
        match[i * b + t] = mi;                                                                 \
        if (mi < 0) continue;                                                                  \
        if (gi < 0 || gi >= w || gj < 0 || gj >= h) continue; /* outside: see run() */         \
        const T score = gs ? gs[i * b + t] : (T)1;                                             \
        const int64_t bi = (i * a->mask_num + mi) * an_stride + gj * w + gi;                   \
        const T tx = q.x * h - gi, ty = q.y * h - gj;                                          \
        const T tw = LOG(q.w * in_size / a->anchors[2 * best_n]);                              \
        const T th = LOG(q.h * in_size / a->anchors[2 * best_n + 1]);                          \
        const T sc = (T)((2.0 - q.w * q.h) * score);                                           \
        loss[i] += sce_##SUF(x[bi], tx) * sc;                                                  \
        loss[i] += sce_##SUF(x[bi + stride], ty) * sc;                                         \
        loss[i] += (T)fabs((double)(tw - x[bi + 2 * stride])) * sc;                            \
        loss[i] += (T)fabs((double)(th - x[bi + 3 * stride])) * sc;                            \
        obj[(i * a->mask_num + mi) * stride + gj * w + gi] = score;                            \
        const int64_t li = bi + 5 * stride;                                                    \
        for (int64_t cl = 0; cl < a->class_num; cl++) {                                        \
          loss[i] += sce_##SUF(x[li + cl * stride], cl == lab[i * b + t] ? pos : neg) * score; \
        }                                                                                      \
      }                                                                                        \
    }                                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                          \
      for (int64_t j = 0; j < a->mask_num; j++) {                                              \
        const T *o = obj + (i * a->mask_num + j) * stride;                                     \
        const T *in = x + (i * a->mask_num + j) * an_stride + 4 * stride;                      \
        for (int64_t e = 0; e < stride; e++) {                                                 \
          if (o[e] > 1e-5) loss[i] += sce_##SUF(in[e], 1) * o[e];                              \
          else if (o[e] > -0.5) loss[i] += sce_##SUF(in[e], 0);                                \
        }                                                                                      \
      }                                                                                        \
    }                                                                                          \
  }
DEFINE_YOLO(float, f32, expf, logf)
DEFINE_YOLO(double, f64, exp, log)

static ic_status run(ic_kctx *c) {
  const ic_yolo_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *box = ic_in(c, IN_BOX, 0);
  const ic_tensor *lab = ic_in(c, IN_LABEL, 0), *sc = ic_in(c, IN_SCORE, 0);
  const int64_t n = x->dims[0], b = box->dims[1], h = x->dims[2], w = x->dims[3];
  const size_t es = ic_dtype_size(x->dtype);
  /* a ground truth whose centre lies outside [0, 1) would index outside the grid (Paddle
   * reads out of bounds): refused */
  for (int64_t k = 0; k < n * b; k++) {
    const double cx = ic_read_f64(box, 4 * k), cy = ic_read_f64(box, 4 * k + 1);
    const double bw = ic_read_f64(box, 4 * k + 2), bh = ic_read_f64(box, 4 * k + 3);
    if (bw < 1e-6 || bh < 1e-6) continue;
    if (!(cx >= 0 && cx < 1 && cy >= 0 && cy < 1)) {
      return ic_kfail_in(c, IN_BOX, 0, "box %lld of image %lld has its centre (%g, %g) outside "
                                       "the image: expected cx, cy in [0, 1)",
                         (long long)(k % b), (long long)(k / b), cx, cy);
    }
  }
  ic_tensor *om = ic_out(c, OUT_OBJ, 0), *gm = ic_out(c, OUT_MATCH, 0);
  ic_buffer *s = NULL;
  void *obj = om ? om->data : NULL, *match = gm ? gm->data : NULL;
  if (!obj || !match) {
    s = ic_kscratch(c, (size_t)(n * a->mask_num * h * w) * es + (size_t)(n * b) * 4 + 8);
    if (!s) return c->err->code;
    if (!obj) obj = s->data;
    if (!match) match = (char *)s->data + (size_t)(n * a->mask_num * h * w) * es;
  }
  if (x->dtype == IC_FP64) {
    loss_f64(a, x->data, box->data, lab->data, sc ? sc->data : NULL,
             ic_out(c, OUT_LOSS, 0)->data, obj, match, n, b, h, w);
  } else {
    loss_f32(a, x->data, box->data, lab->data, sc ? sc->data : NULL,
             ic_out(c, OUT_LOSS, 0)->data, obj, match, n, b, h, w);
  }
  if (s) ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"GTBox", 0}, {"GTLabel", 0}, {"GTScore", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Loss", 0},
                                     {"ObjectnessMask", IC_SLOT_OPTIONAL},
                                     {"GTMatchMask", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_yolov3_loss = {
    .name = "yolov3_loss",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(ic_yolo_attrs), .parse = ic_yolo_parse,
    .infer = infer, .cpu = run,
};
