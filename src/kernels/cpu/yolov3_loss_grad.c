/* yolov3_loss_grad (phi YoloLossGradKernel): X@GRAD of yolov3_loss from the forward's
 * ObjectnessMask and GTMatchMask, Loss@GRAD [N] scaling image n's terms. Where a ground
 * truth matched an anchor of anchor_mask (GTMatchMask >= 0), at its cell, with s = (2 - w h)
 * * score: tx, ty get (sigmoid(x) - target) s g, tw, th get (x > target ? 1 : -1) s g, and
 * each class logit (sigmoid(x) - pos or neg) score g (a later ground truth on the same cell
 * overwrites, as in Paddle); each objectness logit gets (sigmoid(x) - 1) mask g where the
 * mask is > 1e-5, sigmoid(x) g where it is 0; everything else 0. GTBox@GRAD, GTLabel@GRAD
 * and GTScore@GRAD, when the program names them, are zeros (Paddle leaves them unwritten).
 * The same checks and attributes as yolov3_loss (yolov3_loss.h). */
#include <math.h>
#include <string.h>

#include "kernels/cpu/yolov3_loss.h"

enum { IN_X, IN_BOX, IN_LABEL, IN_SCORE, IN_DLOSS, IN_OBJ, IN_MATCH };

static ic_status infer(ic_kctx *c) {
  const ic_yolo_attrs *a = c->attrs;
  int64_t b;
  if (ic_yolo_check(c, IN_X, &b)) return c->err->code;
  const ic_tensor *x = ic_in(c, IN_X, 0), *dl = ic_in(c, IN_DLOSS, 0);
  const ic_tensor *om = ic_in(c, IN_OBJ, 0), *gm = ic_in(c, IN_MATCH, 0);
  const int64_t n = x->dims[0];
  if (dl->dtype != x->dtype || ic_tensor_numel_(dl) != n) {
    return ic_kfail_in(c, IN_DLOSS, 0, "expected %s[%lld]", ic_dtype_name(x->dtype), (long long)n);
  }
  const int64_t od[4] = {n, a->mask_num, x->dims[2], x->dims[3]}, md[2] = {n, b};
  char d[96];
  if (om->dtype != x->dtype || !ic_dims_equal(om->ndim, om->dims, 4, od)) {
    return ic_kfail_in(c, IN_OBJ, 0, "expected %s%s", ic_dtype_name(x->dtype),
                       ic_dims_str(4, od, d, sizeof d));
  }
  if (gm->dtype != IC_INT32 || !ic_dims_equal(gm->ndim, gm->dims, 2, md)) {
    return ic_kfail_in(c, IN_MATCH, 0, "expected int32%s", ic_dims_str(2, md, d, sizeof d));
  }
  for (size_t k = 0; k < 4; k++) {
    ic_tensor *o = ic_out(c, k, 0);
    const ic_tensor *like = ic_in(c, k, 0);
    if (o && like) ic_tensor_set_meta(o, like->dtype, like->ndim, like->dims);
  }
  return IC_OK;
}

#define DEFINE_YOLOG(T, SUF, EXP, LOG)                                                         \
  /* sigmoid(v) - l in double, rounded once (Paddle's SigmoidCrossEntropyGrad) */             \
  static T sceg_##SUF(T v, T l) { return (T)(1.0 / (1.0 + (double)EXP(-v)) - (double)l); }     \
  static void grad_##SUF(const ic_yolo_attrs *a, const T *x, const T *gt, const int32_t *lab, \
                         const T *gs, const T *dl, const T *obj, const int32_t *match, T *dx,  \
                         int64_t n, int64_t b, int64_t h, int64_t w) {                         \
    const int64_t stride = h * w, an_stride = (a->class_num + 5) * stride;                     \
    const int64_t in_size = a->downsample * h;                                                 \
    T pos = 1, neg = 0;                                                                        \
    if (a->label_smooth) {                                                                     \
      const T sw = (T)fmin(1.0 / (double)(T)a->class_num, 1.0 / 40);                           \
      pos = (T)(1.0 - sw);                                                                     \
      neg = sw;                                                                                \
    }                                                                                          \
    memset(dx, 0, (size_t)(n * a->mask_num * an_stride) * sizeof(T));                          \
    for (int64_t i = 0; i < n; i++) {                                                          \
      for (int64_t t = 0; t < b; t++) {                                                        \
        const int mi = match[i * b + t];                                                       \
        if (mi < 0) continue;                                                                  \
        const T *q = gt + (i * b + t) * 4;                                                     \
        const int gi = (int)(q[0] * w), gj = (int)(q[1] * h);                                  \
        if (gi < 0 || gi >= w || gj < 0 || gj >= h) continue; /* refused by the forward */    \
        const int an = a->mask[mi];                                                            \
        const T score = gs ? gs[i * b + t] : (T)1, g = dl[i];                                  \
        const int64_t bi = (i * a->mask_num + mi) * an_stride + gj * w + gi;                   \
        const T tx = q[0] * h - gi, ty = q[1] * h - gj;                                        \
        const T tw = LOG(q[2] * in_size / a->anchors[2 * an]);                                 \
        const T th = LOG(q[3] * in_size / a->anchors[2 * an + 1]);                             \
        const T sc = (T)((2.0 - q[2] * q[3]) * score);                                         \
        dx[bi] = sceg_##SUF(x[bi], tx) * sc * g;                                          \
        dx[bi + stride] = sceg_##SUF(x[bi + stride], ty) * sc * g;                        \
        dx[bi + 2 * stride] = (T)(x[bi + 2 * stride] > tw ? 1.0 : -1.0) * sc * g;              \
        dx[bi + 3 * stride] = (T)(x[bi + 3 * stride] > th ? 1.0 : -1.0) * sc * g;              \
        const int64_t li = bi + 5 * stride;                                                    \
        for (int64_t cl = 0; cl < a->class_num; cl++) {                                        \
          const T l = cl == lab[i * b + t] ? pos : neg;                                        \
          dx[li + cl * stride] = sceg_##SUF(x[li + cl * stride], l) * score * g;          \
        }                                                                                      \
      }                                                                                        \
    }                                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                          \
      for (int64_t j = 0; j < a->mask_num; j++) {                                              \
        const T *o = obj + (i * a->mask_num + j) * stride;                                     \
        const int64_t off = (i * a->mask_num + j) * an_stride + 4 * stride;                    \
        for (int64_t e = 0; e < stride; e++) {                                                 \
          if (o[e] > 1e-5) dx[off + e] = sceg_##SUF(x[off + e], 1) * o[e] * dl[i];      \
          else if (o[e] > -0.5) dx[off + e] = sceg_##SUF(x[off + e], 0) * dl[i];        \
        }                                                                                      \
      }                                                                                        \
    }                                                                                          \
  }
DEFINE_YOLOG(float, f32, expf, logf)
DEFINE_YOLOG(double, f64, exp, log)

static ic_status run(ic_kctx *c) {
  const ic_yolo_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *box = ic_in(c, IN_BOX, 0);
  const ic_tensor *lab = ic_in(c, IN_LABEL, 0), *sc = ic_in(c, IN_SCORE, 0);
  const ic_tensor *dl = ic_in(c, IN_DLOSS, 0), *om = ic_in(c, IN_OBJ, 0);
  const ic_tensor *gm = ic_in(c, IN_MATCH, 0);
  for (size_t k = 1; k < 4; k++) { /* the ground truths' gradients: zeros */
    ic_tensor *o = ic_out(c, k, 0);
    if (o) memset(o->data, 0, (size_t)ic_tensor_numel_(o) * ic_dtype_size(o->dtype));
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  if (!dx) return IC_OK;
  const int64_t n = x->dims[0], b = box->dims[1], h = x->dims[2], w = x->dims[3];
  if (x->dtype == IC_FP64) {
    grad_f64(a, x->data, box->data, lab->data, sc ? sc->data : NULL, dl->data, om->data,
             gm->data, dx->data, n, b, h, w);
  } else {
    grad_f32(a, x->data, box->data, lab->data, sc ? sc->data : NULL, dl->data, om->data,
             gm->data, dx->data, n, b, h, w);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"GTBox", 0},
                                    {"GTLabel", 0},
                                    {"GTScore", IC_SLOT_OPTIONAL},
                                    {"Loss@GRAD", 0},
                                    {"ObjectnessMask", 0},
                                    {"GTMatchMask", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                     {"GTBox@GRAD", IC_SLOT_OPTIONAL},
                                     {"GTLabel@GRAD", IC_SLOT_OPTIONAL},
                                     {"GTScore@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_yolov3_loss_grad = {
    .name = "yolov3_loss_grad",
    .n_inputs = 7, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(ic_yolo_attrs), .parse = ic_yolo_parse,
    .infer = infer, .cpu = run,
};
