/* softmax_with_cross_entropy: Softmax = softmax(Logits) along `axis` (default -1) and
 * Loss = the cross entropy of Label against it (phi CrossEntropyWithSoftmaxKernel, CPU):
 *   hard labels (soft_label false; int32/int64 class indices, Logits' dims with axis 1):
 *       Loss = -log(Softmax[label]), and 0 where label == ignore_index (default -100);
 *       a label outside [0, classes) is an error naming it;
 *   soft labels (a distribution like Logits): Loss = -sum_k Label_k log(Softmax_k).
 * log(0) = -inf is replaced by -1e20 (Paddle's TolerableValue). Loss has Logits' dims with
 * the class axis 1. With use_softmax false, Logits already holds probabilities: Softmax is a
 * copy of it and the loss reads it directly. The softmax follows Paddle's CPU functor: shifted
 * logits clipped below at -64, exp in the input's precision, the sum in double, each
 * probability the exponential times the reciprocal of the sum. numeric_stable_mode only
 * selects a GPU path and is ignored. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/swce.h"

enum { IN_LOGITS, IN_LABEL };
enum { OUT_SOFTMAX, OUT_LOSS };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_LOGITS, 0);
  swce_geom g;
  ic_status st = ic_swce_check(c, IN_LOGITS, IN_LABEL, &g);
  if (st) return st;
  int64_t dims[IC_MAX_RANK];
  for (int i = 0; i < x->ndim; i++) dims[i] = i == g.axis ? 1 : x->dims[i];
  ic_tensor_set_meta(ic_out(c, OUT_SOFTMAX, 0), x->dtype, x->ndim, x->dims);
  ic_tensor_set_meta(ic_out(c, OUT_LOSS, 0), x->dtype, x->ndim, dims);
  return IC_OK;
}

/* log in the tensor's precision, +-inf replaced by +-1e20 (Paddle's TolerableValue) */
static double tolerable_log(double p, bool f32) {
  double v = f32 ? (double)logf((float)p) : log(p);
  return v == -INFINITY ? -1e20 : v == INFINITY ? 1e20 : v;
}

#define SOFTMAX(T, EXP)                                                                    \
  do {                                                                                     \
    const T *restrict xp = x->data;                                                        \
    T *restrict sp = sm->data;                                                             \
    for (int64_t i = 0; i < g.n; i++) {                                                    \
      for (int64_t j = 0; j < g.r; j++) {                                                  \
        const T *xi = xp + i * g.d * g.r + j;                                              \
        T *si = sp + i * g.d * g.r + j;                                                    \
        T mx = xi[0];                                                                      \
        for (int64_t k = 1; k < g.d; k++) mx = xi[k * g.r] > mx ? xi[k * g.r] : mx;        \
        double sum = 0;                                                                    \
        for (int64_t k = 0; k < g.d; k++) {                                                \
          T s = xi[k * g.r] - mx;                                                          \
          s = s < (T)-64 ? (T)-64 : s;                                                     \
          si[k * g.r] = EXP(s);                                                            \
          sum += si[k * g.r];                                                              \
        }                                                                                  \
        T inv = (T)(1.0 / sum);                                                            \
        for (int64_t k = 0; k < g.d; k++) si[k * g.r] *= inv;                              \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}
static void put(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

static ic_status run(ic_kctx *c) {
  const swce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_LOGITS, 0), *label = ic_in(c, IN_LABEL, 0);
  ic_tensor *sm = ic_out(c, OUT_SOFTMAX, 0), *loss = ic_out(c, OUT_LOSS, 0);
  swce_geom g;
  ic_status st = ic_swce_check(c, IN_LOGITS, IN_LABEL, &g);
  if (st) return st;
  if (!a->use_softmax) {
    memcpy(sm->data, x->data, ic_tensor_nbytes(x));
  } else if (x->dtype == IC_FP32) {
    SOFTMAX(float, expf);
  } else {
    SOFTMAX(double, exp);
  }
  for (int64_t i = 0; i < g.n; i++) {
    for (int64_t j = 0; j < g.r; j++) {
      int64_t base = i * g.d * g.r + j, li = i * g.r + j;
      double v = 0;
      if (a->soft_label) {
        for (int64_t k = 0; k < g.d; k++) {
          double lg = tolerable_log(get(sm, base + k * g.r), x->dtype == IC_FP32);
          v -= get(label, base + k * g.r) * lg;
        }
      } else {
        int64_t lbl;
        if ((st = ic_swce_label(c, IN_LABEL, li, &g, &lbl))) return st;
        if (lbl != a->ignore_index) {
          v = -tolerable_log(get(sm, base + lbl * g.r), x->dtype == IC_FP32);
        }
      }
      put(loss, li, v);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Logits", 0}, {"Label", 0}};
static const ic_slotdef outputs[] = {
    {"Softmax", 0},
    {"Loss", 0},
    {"Backprop", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}, /* NPU/MLU only; left empty */
};

const ic_opdef ic_op_softmax_with_cross_entropy = {
    .name = "softmax_with_cross_entropy",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(swce_attrs), .parse = ic_swce_parse,
    .infer = infer, .cpu = run,
};
