/* momentum: one momentum step (phi MomentumDenseKernel, CPU), in Param's dtype. With
 * g = rescale_grad * Grad, plus regularization_coeff * Param when regularization_method is
 * "l2_decay":
 *   VelocityOut = mu Velocity + g
 *   ParamOut    = Param - LearningRate * VelocityOut                  (default)
 *               = Param - LearningRate * (g + mu VelocityOut)         (use_nesterov)
 * Attributes: mu (required), use_nesterov (false), regularization_method ("" or "l2_decay"),
 * regularization_coeff (0), rescale_grad (1). ParamOut and VelocityOut update Param and
 * Velocity in place (ic_momentum_inplace, train.h); MasterParam (multi_precision) is not
 * supported. */
#include <string.h>

#include "kernels/cpu/train.h"

typedef struct momentum_attrs {
  float mu, coeff, rescale;
  bool nesterov, l2, multi_precision;
} momentum_attrs;

enum { IN_PARAM, IN_GRAD, IN_VEL, IN_LR, IN_MASTER };
enum { OUT_PARAM, OUT_VEL, OUT_MASTER };

const ic_train_inplace ic_momentum_inplace[] = {
    {"ParamOut", "Param"}, {"VelocityOut", "Velocity"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  momentum_attrs *a = attrs;
  a->mu = (float)ic_ar_float(r, "mu", 0.0);
  a->nesterov = ic_ar_bool(r, "use_nesterov", false);
  const char *m = ic_ar_str(r, "regularization_method", "");
  a->coeff = (float)ic_ar_float(r, "regularization_coeff", 0.0);
  a->rescale = (float)ic_ar_float(r, "rescale_grad", 1.0);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  if (r->st) return r->st;
  if (!strcmp(m, "l2_decay")) a->l2 = true;
  else if (*m) return ic_ar_fail(r, "regularization_method", "is '%s', expected \"\" or l2_decay", m);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const momentum_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_same(c, IN_VEL, 0, IN_PARAM)) ||
      (st = ic_train_scalar(c, IN_LR, p->dtype))) {
    return st;
  }
  ic_tensor_set_meta(ic_out(c, OUT_PARAM, 0), p->dtype, p->ndim, p->dims);
  ic_tensor_set_meta(ic_out(c, OUT_VEL, 0), p->dtype, p->ndim, p->dims);
  return IC_OK;
}

#define STEP(T)                                                                            \
  do {                                                                                     \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict vp = v->data;                                              \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict vo = ic_out(c, OUT_VEL, 0)->data; \
    const T lr = *(const T *)ic_in(c, IN_LR, 0)->data, mu = (T)a->mu,                      \
            rc = (T)a->coeff, rs = (T)a->rescale;                                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = a->rescale != 1.0f ? rs * gp[i] : gp[i];                                       \
      if (a->l2) g = g + rc * pp[i];                                                       \
      T vn = vp[i] * mu + g;                                                               \
      vo[i] = vn;                                                                          \
      po[i] = a->nesterov ? pp[i] - (g + vn * mu) * lr : pp[i] - lr * vn;                  \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const momentum_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0), *v = ic_in(c, IN_VEL, 0);
  ic_status st;
  if ((st = ic_train_own(c, ic_out(c, OUT_PARAM, 0), p)) ||
      (st = ic_train_own(c, ic_out(c, OUT_VEL, 0), v))) {
    return st;
  }
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) STEP(float);
  else STEP(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", 0},
    {"Grad", 0},
    {"Velocity", 0},
    {"LearningRate", 0},
    {"MasterParam", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"VelocityOut", IC_SLOT_SHARE},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_momentum = {
    .name = "momentum",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(momentum_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
