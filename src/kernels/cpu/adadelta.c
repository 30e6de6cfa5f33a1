/* adadelta: one Adadelta step (phi AdadeltaKernel, CPU), in Param's dtype:
 *   AvgSquaredGradOut   = rho AvgSquaredGrad + (1 - rho) Grad^2
 *   update              = -(sqrt(AvgSquaredUpdate + epsilon) / sqrt(AvgSquaredGradOut + epsilon)
 *                           * Grad)
 *   ParamOut            = Param + LearningRate * update
 *   AvgSquaredUpdateOut = rho AvgSquaredUpdate + (1 - rho) update^2
 * Defaults rho 0.95, epsilon 1e-6. ParamOut and the two accumulators update their inputs in
 * place (ic_adadelta_inplace, train.h). multi_precision (MasterParam) is not supported: Paddle
 * uses it only for float16 / bfloat16 parameters. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct adadelta_attrs {
  float rho, epsilon;
  bool multi_precision;
} adadelta_attrs;

enum { IN_PARAM, IN_GRAD, IN_ASG, IN_ASU, IN_LR, IN_MASTER };
enum { OUT_PARAM, OUT_ASG, OUT_ASU, OUT_MASTER };

const ic_train_inplace ic_adadelta_inplace[] = {{"ParamOut", "Param"},
                                                {"AvgSquaredGradOut", "AvgSquaredGrad"},
                                                {"AvgSquaredUpdateOut", "AvgSquaredUpdate"},
                                                {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  adadelta_attrs *a = attrs;
  a->rho = (float)ic_ar_float(r, "rho", 0.95);
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-6);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const adadelta_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_same(c, IN_ASG, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_ASU, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, p->dtype))) {
    return st;
  }
  for (int k = OUT_PARAM; k <= OUT_ASU; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), p->dtype, p->ndim, p->dims);
  }
  return IC_OK;
}

#define STEP(T, SQRT)                                                                      \
  do {                                                                                     \
    const T rho = (T)a->rho, eps = (T)a->epsilon, lr = *(const T *)ic_in(c, IN_LR, 0)->data; \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict sg = ic_in(c, IN_ASG, 0)->data,                            \
                      *restrict su = ic_in(c, IN_ASU, 0)->data;                            \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict sgo = ic_out(c, OUT_ASG, 0)->data, \
      *restrict suo = ic_out(c, OUT_ASU, 0)->data;                                         \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = gp[i], g2 = rho * sg[i] + ((T)1 - rho) * (g * g);                              \
      T u = -(SQRT(su[i] + eps) / SQRT(g2 + eps) * g);                                     \
      sgo[i] = g2;                                                                         \
      po[i] = pp[i] + lr * u;                                                              \
      suo[i] = rho * su[i] + ((T)1 - rho) * (u * u);                                       \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const adadelta_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  static const int like[] = {IN_PARAM, IN_ASG, IN_ASU};
  for (int k = OUT_PARAM; k <= OUT_ASU; k++) {
    ic_status st = ic_train_own(c, ic_out(c, k, 0), ic_in(c, like[k], 0));
    if (st) return st;
  }
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) STEP(float, sqrtf);
  else STEP(double, sqrt);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", 0},
    {"Grad", 0},
    {"AvgSquaredGrad", 0},
    {"AvgSquaredUpdate", 0},
    {"LearningRate", 0},
    {"MasterParam", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"AvgSquaredGradOut", IC_SLOT_SHARE},
    {"AvgSquaredUpdateOut", IC_SLOT_SHARE},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_adadelta = {
    .name = "adadelta",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(adadelta_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
