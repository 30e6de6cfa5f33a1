/* box_decoder_and_assign: decodes TargetBox [N, 4C] (C classes' deltas per prior) against
 * PriorBox [N, 4] with the 4 variances of PriorBoxVar [4] (required, as Paddle's InferShape
 * has it, though its maker calls it dispensable), in the input's
 * precision, as paddle/fluid/operators/detection/box_decoder_and_assign_op.h (Paddle 2.6):
 *   pw = x2 - x1 + 1, ph = y2 - y1 + 1, pcx = x1 + pw / 2, pcy = y1 + ph / 2;
 *   cx = v0 * tx * pw + pcx, cy = v1 * ty * ph + pcy,
 *   w = exp(min(v2 * tw, box_clip)) * pw, h = exp(min(v3 * th, box_clip)) * ph;
 *   DecodeBox = [cx - w/2, cy - h/2, cx + w/2 - 1, cy + h/2 - 1] per class.
 * OutputAssignBox [N, 4]: the decoded box of the best-scoring class of BoxScore [N, C]
 * other than class 0 (scores above -1 only; the first of equal ones), else the prior box.
 * DecodeBox keeps TargetBox's LoD and OutputAssignBox PriorBox's. box_clip defaults to
 * 4.135 (log(1000 / 16)). float32 or float64. */
#include <math.h>

#include "kernels/kernel.h"

typedef struct bda_attrs {
  float clip;
} bda_attrs;

enum { IN_PRIOR, IN_VAR, IN_TARGET, IN_SCORE };
enum { OUT_DECODE, OUT_ASSIGN };
static const ic_slotdef k_inputs[4] = {
    {"PriorBox", 0}, {"PriorBoxVar", 0}, {"TargetBox", 0}, {"BoxScore", 0}};
static const ic_slotdef k_outputs[2] = {{"DecodeBox", 0}, {"OutputAssignBox", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((bda_attrs *)attrs)->clip = (float)ic_ar_float(r, "box_clip", 4.135);
  return r->st;
}

static ic_status copy_lod(ic_kctx *c, ic_tensor *out, const ic_tensor *from) {
  if (!out) return IC_OK;
  return ic_kset_lod(c, out, from->lod ? ic_lod_clone(from->lod) : NULL, from->lod != NULL);
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PRIOR, 0), *v = ic_in(c, IN_VAR, 0),
                  *t = ic_in(c, IN_TARGET, 0), *s = ic_in(c, IN_SCORE, 0);
  ic_status st = ic_kcheck_dtype(c, IN_PRIOR, 0, IC_DT_FLOAT);
  if (st) return st;
  for (size_t k = IN_VAR; k <= IN_SCORE; k++) {
    const ic_tensor *in = ic_in(c, k, 0);
    if (in->dtype != p->dtype) return ic_kfail_in(c, k, 0, "expected PriorBox's dtype");
  }
  if (p->ndim != 2 || p->dims[1] != 4) return ic_kfail_in(c, IN_PRIOR, 0, "expected [N, 4]");
  if (v->ndim != 1 || v->dims[0] != 4) return ic_kfail_in(c, IN_VAR, 0, "expected [4]");
  if (s->ndim != 2 || s->dims[0] != p->dims[0]) {
    return ic_kfail_in(c, IN_SCORE, 0, "expected [N, classes] with N = %lld (PriorBox)",
                       (long long)p->dims[0]);
  }
  if (t->ndim != 2 || t->dims[0] != p->dims[0] || t->dims[1] != 4 * s->dims[1]) {
    return ic_kfail_in(c, IN_TARGET, 0, "expected [%lld, %lld] (N, 4 x BoxScore's classes)",
                       (long long)p->dims[0], (long long)(4 * s->dims[1]));
  }
  ic_tensor_set_meta(ic_out(c, OUT_DECODE, 0), p->dtype, 2, t->dims);
  ic_tensor_set_meta(ic_out(c, OUT_ASSIGN, 0), p->dtype, 2, p->dims);
  if ((st = copy_lod(c, ic_out(c, OUT_DECODE, 0), t))) return st;
  return copy_lod(c, ic_out(c, OUT_ASSIGN, 0), p);
}

#define BDA_LOOP(T, EXP)                                                                  \
  do {                                                                                    \
    const T *P = p->data, *TB = t->data, *S = s->data;                                    \
    T *D = ic_out(c, OUT_DECODE, 0)->data, *A = ic_out(c, OUT_ASSIGN, 0)->data;           \
    T var[4];                                                                             \
    for (int k = 0; k < 4; k++) var[k] = ((const T *)v->data)[k];                         \
    const T clip = (T)a->clip;                                                            \
    for (int64_t i = 0; i < N; i++) {                                                     \
      const T *pb = P + i * 4;                                                            \
      const T pw = pb[2] - pb[0] + 1, ph = pb[3] - pb[1] + 1;                             \
      const T pcx = pb[0] + pw / 2, pcy = pb[1] + ph / 2;                                 \
      for (int64_t j = 0; j < C; j++) {                                                   \
        const int64_t o = (i * C + j) * 4;                                                \
        T dw = var[2] * TB[o + 2], dh = var[3] * TB[o + 3];                               \
        if (clip < dw) dw = clip;                                                         \
        if (clip < dh) dh = clip;                                                         \
        const T cx = var[0] * TB[o] * pw + pcx, cy = var[1] * TB[o + 1] * ph + pcy;       \
        const T w = EXP(dw) * pw, h = EXP(dh) * ph;                                       \
        D[o] = cx - w / 2;                                                                \
        D[o + 1] = cy - h / 2;                                                            \
        D[o + 2] = cx + w / 2 - 1;                                                        \
        D[o + 3] = cy + h / 2 - 1;                                                        \
      }                                                                                   \
      T best = -1;                                                                        \
      int64_t bj = -1;                                                                    \
      for (int64_t j = 1; j < C; j++) {                                                   \
        if (S[i * C + j] > best) {                                                        \
          best = S[i * C + j];                                                            \
          bj = j;                                                                         \
        }                                                                                 \
      }                                                                                   \
      const T *src = bj > 0 ? D + (i * C + bj) * 4 : pb;                                  \
      for (int k = 0; k < 4; k++) A[i * 4 + k] = src[k];                                  \
    }                                                                                     \
  } while (0)

static ic_status run(ic_kctx *c) {
  const bda_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PRIOR, 0), *v = ic_in(c, IN_VAR, 0),
                  *t = ic_in(c, IN_TARGET, 0), *s = ic_in(c, IN_SCORE, 0);
  const int64_t N = p->dims[0], C = s->dims[1];
  if (p->dtype == IC_FP32) BDA_LOOP(float, expf);
  else BDA_LOOP(double, exp);
  return IC_OK;
}

const ic_opdef ic_op_box_decoder_and_assign = {
    .name = "box_decoder_and_assign", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(bda_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD, /* DecodeBox: TargetBox's LoD; OutputAssignBox: PriorBox's */
};
