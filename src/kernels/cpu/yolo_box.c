/* yolo_box: decode a YOLOv3 head into boxes and per-class scores (paddle/phi/kernels/cpu/
 * yolo_box_kernel.cc, funcs/yolo_box_util.h, YoloBoxInferMeta).
 *
 * X is [N, A * (5 + class_num), H, W] for A = len(anchors) / 2 anchors (with iou_aware,
 * [N, A * (6 + class_num), H, W]: the A IoU channels come first). ImgSize is int32 [N, 2]
 * (height, width). Boxes is [N, A * H * W, 4] (x0, y0, x1, y1 in image pixels), Scores
 * [N, A * H * W, class_num]; box b = a * H * W + k * W + l. For each anchor and cell:
 *   conf = sigmoid(obj), or with iou_aware conf^(1 - f) * sigmoid(iou)^f (f =
 *   iou_aware_factor); cells with conf < conf_thresh keep zero boxes and scores;
 *   cx = (l + sigmoid(tx) * s + b) * img_w / W, cy likewise (s = scale_x_y,
 *   b = -0.5 (s - 1) computed in float as Paddle does); w = exp(tw) * anchor_w * img_w /
 * (downsample_ratio * W), h likewise; with clip_bbox the corners are clamped to [0, img_w - 1] x
 * [0, img_h - 1]; score[c] = conf * sigmoid(class c). */
#include <math.h>

#include "kernels/cpu/detection.h"

#define MAX_ANCHORS 64

typedef struct yb_attrs {
  int anchors[2 * MAX_ANCHORS];
  int an_num, class_num, downsample;
  double conf_thresh, scale, iou_factor;
  bool clip, iou_aware;
} yb_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  yb_attrs *a = attrs;
  const int64_t *anc = NULL;
  size_t n = 0;
  ic_ar_ints(r, "anchors", true, &anc, &n);
  int64_t cls = ic_ar_int_req(r, "class_num");
  a->conf_thresh = (float)ic_ar_float(r, "conf_thresh", 0.01);
  int64_t ds = ic_ar_int(r, "downsample_ratio", 32);
  a->clip = ic_ar_bool(r, "clip_bbox", true);
  a->scale = (float)ic_ar_float(r, "scale_x_y", 1.0);
  a->iou_aware = ic_ar_bool(r, "iou_aware", false);
  a->iou_factor = (float)ic_ar_float(r, "iou_aware_factor", 0.5);
  if (r->st) return r->st;
  if (n == 0 || n % 2) {
    return ic_ar_fail(r, "anchors", "has %zu entries, expected a positive even count", n);
  }
  if (n > 2 * MAX_ANCHORS) {
    return ic_ar_fail(r, "anchors", "has %zu entries, at most %d supported", n, 2 * MAX_ANCHORS);
  }
  for (size_t i = 0; i < n; i++) a->anchors[i] = (int)anc[i];
  a->an_num = (int)(n / 2);
  if (cls <= 0 || cls > INT32_MAX / 2) {
    return ic_ar_fail(r, "class_num", "is %lld, expected > 0", (long long)cls);
  }
  a->class_num = (int)cls;
  if (ds <= 0 || ds > INT32_MAX) {
    return ic_ar_fail(r, "downsample_ratio", "is %lld, expected > 0", (long long)ds);
  }
  a->downsample = (int)ds;
  if (!(a->scale > 0)) return ic_ar_fail(r, "scale_x_y", "is %g, expected > 0", a->scale);
  if (a->iou_aware && !(a->iou_factor >= 0 && a->iou_factor <= 1)) {
    return ic_ar_fail(r, "iou_aware_factor", "is %g, expected in [0, 1]", a->iou_factor);
  }
  return IC_OK;
}

enum { IN_X, IN_IMG };
enum { OUT_BOXES, OUT_SCORES };

static ic_status infer(ic_kctx *c) {
  const yb_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *img = ic_in(c, IN_IMG, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (!st) st = ic_kcheck_dtype(c, IN_IMG, 0, IC_DT(IC_INT32));
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, IN_X, 0, "expected rank 4 (NCHW)");
  const int64_t want = (int64_t)a->an_num * (a->class_num + (a->iou_aware ? 6 : 5));
  if (x->dims[1] != want) {
    return ic_kfail_in(c, IN_X, 0,
                       "expected %lld channels: %d anchors x (%s%d classes)", (long long)want,
                       a->an_num, a->iou_aware ? "6 + " : "5 + ", a->class_num);
  }
  if (img->ndim != 2 || img->dims[1] != 2 || img->dims[0] != x->dims[0]) {
    return ic_kfail_in(c, IN_IMG, 0, "expected [%lld, 2] (one height, width per image)",
                       (long long)x->dims[0]);
  }
  const int64_t nb = (int64_t)a->an_num * x->dims[2] * x->dims[3];
  ic_tensor_set_meta(ic_out(c, OUT_BOXES, 0), x->dtype, 3, (int64_t[]){x->dims[0], nb, 4});
  ic_tensor_set_meta(ic_out(c, OUT_SCORES, 0), x->dtype, 3,
                     (int64_t[]){x->dims[0], nb, a->class_num});
  return IC_OK;
}

static double sigm(ic_dtype dt, double v) { return det_round(dt, 1.0 / (1.0 + exp(-v))); }

static ic_status run(ic_kctx *c) {
  const yb_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *img = ic_in(c, IN_IMG, 0);
  ic_tensor *boxes = ic_out(c, OUT_BOXES, 0), *scores = ic_out(c, OUT_SCORES, 0);
  const ic_dtype dt = x->dtype;
  const int64_t N = x->dims[0], H = x->dims[2], W = x->dims[3], A = a->an_num, C = a->class_num;
  const int64_t S = H * W, an_stride = (C + 5) * S, nb = A * S;
  const int64_t per_batch = x->dims[1] * S, entry0 = a->iou_aware ? A * S : 0;
  for (int64_t i = 0; i < ic_tensor_numel_(boxes); i++) det_put(boxes, i, 0);
  for (int64_t i = 0; i < ic_tensor_numel_(scores); i++) det_put(scores, i, 0);
  if (ic_tensor_numel_(x) == 0) return IC_OK;
  const int32_t *isz = img->data;
  const double bias = (float)(-0.5f * ((float)a->scale - 1.f)); /* float, as in Paddle */
  const double in_h = (double)a->downsample * (double)H, in_w = (double)a->downsample * (double)W;
  for (int64_t n = 0; n < N; n++) {
    const double ih = isz[2 * n], iw = isz[2 * n + 1];
    const int64_t base = n * per_batch;
    for (int64_t an = 0; an < A; an++) {
      const int64_t abase = base + entry0 + an * an_stride;
      for (int64_t k = 0; k < H; k++) {
        for (int64_t l = 0; l < W; l++) {
          const int64_t hw = k * W + l;
          double conf = sigm(dt, det_get(x, abase + 4 * S + hw));
          if (a->iou_aware) {
            double iou = sigm(dt, det_get(x, base + an * S + hw));
            conf = det_round(dt, pow(conf, 1.0 - a->iou_factor) * pow(iou, a->iou_factor));
          }
          if (conf < a->conf_thresh) continue;
          const double tx = det_get(x, abase + hw), ty = det_get(x, abase + S + hw);
          const double tw = det_get(x, abase + 2 * S + hw), th = det_get(x, abase + 3 * S + hw);
          double cx = det_round(dt, ((double)l + sigm(dt, tx) * a->scale + bias) * iw / (double)W);
          double cy = det_round(dt, ((double)k + sigm(dt, ty) * a->scale + bias) * ih / (double)H);
          double bw = det_round(dt, exp(tw) * a->anchors[2 * an] * iw / in_w);
          double bh = det_round(dt, exp(th) * a->anchors[2 * an + 1] * ih / in_h);
          double b[4] = {cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2};
          if (a->clip) {
            b[0] = b[0] > 0 ? b[0] : 0;
            b[1] = b[1] > 0 ? b[1] : 0;
            b[2] = b[2] < iw - 1 ? b[2] : iw - 1;
            b[3] = b[3] < ih - 1 ? b[3] : ih - 1;
          }
          const int64_t bi = n * nb + an * S + hw;
          for (int q = 0; q < 4; q++) det_put(boxes, bi * 4 + q, b[q]);
          for (int64_t cl = 0; cl < C; cl++) {
            det_put(scores, bi * C + cl, conf * sigm(dt, det_get(x, abase + (5 + cl) * S + hw)));
          }
        }
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"ImgSize", 0}};
static const ic_slotdef outputs[] = {{"Boxes", 0}, {"Scores", 0}};

const ic_opdef ic_op_yolo_box = {
    .name = "yolo_box",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(yb_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
