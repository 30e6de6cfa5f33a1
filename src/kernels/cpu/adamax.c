/* adamax: one Adamax step (phi AdamaxKernel, CPU), in Param's dtype:
 *   MomentOut  = beta1 Moment + (1 - beta1) Grad
 *   InfNormOut = max(|Grad|, beta2 InfNorm + epsilon)
 *   ParamOut   = Param - (LearningRate / (1 - Beta1Pow)) * (MomentOut / InfNormOut)
 * Defaults beta1 0.9, beta2 0.999, epsilon 1e-8. The op leaves Beta1Pow as it is: Paddle's
 * paddle.optimizer.Adamax follows each adamax op with a scale op (Beta1Pow *= beta1).
 * ParamOut, MomentOut and InfNormOut update Param, Moment and InfNorm in place
 * (ic_adamax_inplace, train.h). multi_precision (MasterParam) is not supported: Paddle uses
 * it only for float16 / bfloat16 parameters. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct adamax_attrs {
  float beta1, beta2, epsilon;
  bool multi_precision;
} adamax_attrs;

enum { IN_PARAM, IN_GRAD, IN_LR, IN_MOMENT, IN_INF, IN_B1POW, IN_MASTER };
enum { OUT_PARAM, OUT_MOMENT, OUT_INF, OUT_MASTER };

const ic_train_inplace ic_adamax_inplace[] = {
    {"ParamOut", "Param"}, {"MomentOut", "Moment"}, {"InfNormOut", "InfNorm"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  adamax_attrs *a = attrs;
  a->beta1 = (float)ic_ar_float(r, "beta1", 0.9);
  a->beta2 = (float)ic_ar_float(r, "beta2", 0.999);
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-8);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const adamax_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_MOMENT, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_INF, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, p->dtype)) ||
      (st = ic_train_scalar(c, IN_B1POW, p->dtype))) {
    return st;
  }
  for (int k = OUT_PARAM; k <= OUT_INF; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), p->dtype, p->ndim, p->dims);
  }
  return IC_OK;
}

#define STEP(T, FABS)                                                                      \
  do {                                                                                     \
    const T b1 = (T)a->beta1, b2 = (T)a->beta2, eps = (T)a->epsilon;                       \
    const T lr = *(const T *)ic_in(c, IN_LR, 0)->data /                                   \
                 ((T)1 - *(const T *)ic_in(c, IN_B1POW, 0)->data);                         \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict mp = ic_in(c, IN_MOMENT, 0)->data,                         \
                      *restrict up = ic_in(c, IN_INF, 0)->data;                            \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict mo = ic_out(c, OUT_MOMENT, 0)->data, \
      *restrict uo = ic_out(c, OUT_INF, 0)->data;                                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = gp[i], m = b1 * mp[i] + ((T)1 - b1) * g, ag = FABS(g), u = b2 * up[i] + eps;   \
      u = ag > u ? ag : u;                                                                 \
      mo[i] = m;                                                                           \
      uo[i] = u;                                                                           \
      po[i] = pp[i] - lr * (m / u);                                                        \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const adamax_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  static const int like[] = {IN_PARAM, IN_MOMENT, IN_INF};
  for (int k = OUT_PARAM; k <= OUT_INF; k++) {
    ic_status st = ic_train_own(c, ic_out(c, k, 0), ic_in(c, like[k], 0));
    if (st) return st;
  }
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) STEP(float, fabsf);
  else STEP(double, fabs);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", 0},   {"Grad", 0},    {"LearningRate", 0},
    {"Moment", 0},  {"InfNorm", 0}, {"Beta1Pow", 0},
    {"MasterParam", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"MomentOut", IC_SLOT_SHARE},
    {"InfNormOut", IC_SLOT_SHARE},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_adamax = {
    .name = "adamax",
    .n_inputs = 7, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(adamax_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
