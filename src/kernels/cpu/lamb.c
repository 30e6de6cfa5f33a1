/* lamb: one LAMB step (phi LambKernel, CPU dense), in Param's dtype:
 *   Moment1Out = beta1 Moment1 + (1 - beta1) g,  Moment2Out = beta2 Moment2 + (1 - beta2) g^2
 *   r = Moment1Out / (1 - Beta1Pow) / (sqrt(Moment2Out / (1 - Beta2Pow)) + epsilon)
 *       + weight_decay Param
 *   ParamOut = Param - LearningRate * trust * r,  trust = ||Param|| / ||r|| when both norms are
 *   > 0, else 1; with weight_decay 0 and always_adapt false trust is 1 (no adaptation)
 *   Beta1PowOut = beta1 Beta1Pow, Beta2PowOut = beta2 Beta2Pow.
 * Defaults: weight_decay 0.01, beta1 0.9, beta2 0.999, epsilon 1e-6. The squared norms are
 * summed in double and rounded to Param's dtype before the square root, as Paddle sums them
 * into an MT value. SkipUpdate (true) copies every input to its output. *Out update their
 * inputs in place (ic_lamb_inplace, train.h); MasterParam is not supported. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/train.h"

typedef struct lamb_attrs {
  float weight_decay, beta1, beta2, epsilon;
  bool always_adapt, multi_precision;
} lamb_attrs;

enum { IN_PARAM, IN_GRAD, IN_LR, IN_M1, IN_M2, IN_B1P, IN_B2P, IN_MASTER, IN_SKIP };
enum { OUT_PARAM, OUT_M1, OUT_M2, OUT_B1P, OUT_B2P, OUT_MASTER };

const ic_train_inplace ic_lamb_inplace[] = {
    {"ParamOut", "Param"},         {"Moment1Out", "Moment1"},     {"Moment2Out", "Moment2"},
    {"Beta1PowOut", "Beta1Pow"},   {"Beta2PowOut", "Beta2Pow"},   {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lamb_attrs *a = attrs;
  a->weight_decay = (float)ic_ar_float(r, "weight_decay", 0.01);
  a->beta1 = (float)ic_ar_float(r, "beta1", 0.9);
  a->beta2 = (float)ic_ar_float(r, "beta2", 0.999);
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-6);
  a->always_adapt = ic_ar_bool(r, "always_adapt", false);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const lamb_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_same(c, IN_M1, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_M2, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, p->dtype)) ||
      (st = ic_train_scalar(c, IN_B1P, p->dtype)) || (st = ic_train_scalar(c, IN_B2P, p->dtype))) {
    return st;
  }
  const ic_tensor *skip = ic_in(c, IN_SKIP, 0);
  if (skip && (skip->dtype != IC_BOOL || ic_tensor_numel_(skip) != 1)) {
    return ic_kfail_in(c, IN_SKIP, 0, "expected one bool value");
  }
  static const int like[] = {IN_PARAM, IN_M1, IN_M2, IN_B1P, IN_B2P};
  for (int k = OUT_PARAM; k <= OUT_B2P; k++) {
    const ic_tensor *i = ic_in(c, like[k], 0);
    if (ic_out(c, k, 0)) ic_tensor_set_meta(ic_out(c, k, 0), i->dtype, i->ndim, i->dims);
  }
  return IC_OK;
}

#define STEP(T, SQRT)                                                                      \
  do {                                                                                     \
    const T b1 = (T)a->beta1, b2 = (T)a->beta2, eps = (T)a->epsilon, wd = (T)a->weight_decay; \
    const T b1p = *(const T *)ic_in(c, IN_B1P, 0)->data, b2p = *(const T *)ic_in(c, IN_B2P, 0)->data; \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict m1 = ic_in(c, IN_M1, 0)->data, *restrict m2 = ic_in(c, IN_M2, 0)->data; \
    T *restrict m1o = ic_out(c, OUT_M1, 0)->data, *restrict m2o = ic_out(c, OUT_M2, 0)->data; \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data;                                        \
    T *restrict r = scratch->data;                                                         \
    double pn2 = 0, rn2 = 0;                                                               \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = gp[i], v1 = b1 * m1[i] + (1 - b1) * g, v2 = b2 * m2[i] + (1 - b2) * g * g;     \
      m1o[i] = v1;                                                                         \
      m2o[i] = v2;                                                                         \
      T u1 = v1 / (1 - b1p), u2 = v2 / (1 - b2p);                                          \
      r[i] = u1 / (SQRT(u2) + eps) + wd * pp[i];                                           \
      pn2 += (double)pp[i] * pp[i];                                                        \
      rn2 += (double)r[i] * r[i];                                                          \
    }                                                                                      \
    T pn = SQRT((T)pn2), tn = SQRT((T)rn2), lr = *(const T *)ic_in(c, IN_LR, 0)->data;     \
    T ratio = (pn > 0 && tn > 0) ? pn / tn : (T)1;                                         \
    if (a->weight_decay == 0.0f && !a->always_adapt) ratio = 1;                            \
    lr *= ratio;                                                                           \
    for (int64_t i = 0; i < n; i++) po[i] = pp[i] - lr * r[i];                             \
    if (ic_out(c, OUT_B1P, 0)) *(T *)ic_out(c, OUT_B1P, 0)->data = b1p * b1;               \
    if (ic_out(c, OUT_B2P, 0)) *(T *)ic_out(c, OUT_B2P, 0)->data = b2p * b2;               \
  } while (0)

static ic_status run(ic_kctx *c) {
  const lamb_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0), *skip = ic_in(c, IN_SKIP, 0);
  const bool skipping = skip && *(const bool *)skip->data;
  static const int like[] = {IN_PARAM, IN_M1, IN_M2, IN_B1P, IN_B2P};
  for (int k = OUT_PARAM; k <= OUT_B2P; k++) {
    ic_tensor *o = ic_out(c, k, 0);
    const ic_tensor *i = ic_in(c, like[k], 0);
    if (!o) continue;
    ic_status st = ic_train_own(c, o, i);
    if (st) return st;
    if (skipping) memcpy(o->data, i->data, ic_tensor_nbytes(i));
  }
  if (skipping) return IC_OK;
  int64_t n = ic_tensor_numel_(p);
  ic_buffer *scratch = ic_kscratch(c, (size_t)(n + 1) * ic_dtype_size(p->dtype));
  if (!scratch) return c->err->code;
  if (p->dtype == IC_FP32) STEP(float, sqrtf);
  else STEP(double, sqrt);
  ic_buffer_release(scratch);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", 0},      {"Grad", 0},     {"LearningRate", 0},
    {"Moment1", 0},    {"Moment2", 0},  {"Beta1Pow", 0},
    {"Beta2Pow", 0},   {"MasterParam", IC_SLOT_OPTIONAL},
    {"SkipUpdate", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"Moment1Out", IC_SLOT_SHARE},
    {"Moment2Out", IC_SLOT_SHARE},
    {"Beta1PowOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"Beta2PowOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_lamb = {
    .name = "lamb",
    .n_inputs = 9, .inputs = inputs,
    .n_outputs = 6, .outputs = outputs,
    .attrs_size = sizeof(lamb_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
