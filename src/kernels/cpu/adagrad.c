/* adagrad: one Adagrad step (phi AdagradDenseKernel, CPU), in Param's dtype:
 *   MomentOut = Moment + Grad^2,  ParamOut = Param - LearningRate * Grad / (sqrt(MomentOut) + epsilon)
 * epsilon defaults to 1e-6. ParamOut and MomentOut update Param and Moment in place
 * (ic_adagrad_inplace, train.h); MasterParam (multi_precision) is not supported. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct adagrad_attrs {
  float epsilon;
  bool multi_precision;
} adagrad_attrs;

enum { IN_PARAM, IN_GRAD, IN_MOMENT, IN_LR, IN_MASTER };
enum { OUT_PARAM, OUT_MOMENT };

const ic_train_inplace ic_adagrad_inplace[] = {
    {"ParamOut", "Param"}, {"MomentOut", "Moment"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  adagrad_attrs *a = attrs;
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-6);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const adagrad_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_MOMENT, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, p->dtype))) {
    return st;
  }
  ic_tensor_set_meta(ic_out(c, OUT_PARAM, 0), p->dtype, p->ndim, p->dims);
  ic_tensor_set_meta(ic_out(c, OUT_MOMENT, 0), p->dtype, p->ndim, p->dims);
  return IC_OK;
}

#define STEP(T, SQRT)                                                                      \
  do {                                                                                     \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict mp = m->data;                                              \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict mo = ic_out(c, OUT_MOMENT, 0)->data; \
    const T lr = *(const T *)ic_in(c, IN_LR, 0)->data, eps = (T)a->epsilon;                \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = gp[i], mn = mp[i] + g * g;                                                     \
      mo[i] = mn;                                                                          \
      po[i] = pp[i] - lr * g / (SQRT(mn) + eps);                                           \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const adagrad_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0), *m = ic_in(c, IN_MOMENT, 0);
  ic_status st;
  if ((st = ic_train_own(c, ic_out(c, OUT_PARAM, 0), p)) ||
      (st = ic_train_own(c, ic_out(c, OUT_MOMENT, 0), m))) {
    return st;
  }
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) STEP(float, sqrtf);
  else STEP(double, sqrt);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", 0}, {"Grad", 0}, {"Moment", 0}, {"LearningRate", 0}, {"MasterParam", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"MomentOut", IC_SLOT_SHARE},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_adagrad = {
    .name = "adagrad",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(adagrad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
