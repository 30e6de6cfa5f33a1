/* rmsprop: one RMSProp step (phi RmspropDenseKernel, CPU), in Param's dtype, with rho = decay
 * (default 0.9), epsilon (1e-10) and momentum (0):
 *   MeanSquareOut = rho MeanSquare + (1 - rho) Grad^2
 *   centered:  MeanGradOut = rho MeanGrad + (1 - rho) Grad,
 *              MomentOut = momentum Moment + LearningRate Grad / sqrt(MeanSquareOut - MeanGradOut^2 + epsilon)
 *   otherwise: MomentOut = momentum Moment + LearningRate Grad / sqrt(MeanSquareOut + epsilon)
 *   ParamOut = Param - MomentOut
 * Every *Out updates its input in place (ic_rmsprop_inplace, train.h); MasterParam is not
 * supported. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct rmsprop_attrs {
  float epsilon, decay, momentum;
  bool centered, multi_precision;
} rmsprop_attrs;

enum { IN_PARAM, IN_MS, IN_MG, IN_LR, IN_GRAD, IN_MOM, IN_MASTER };
enum { OUT_PARAM, OUT_MOM, OUT_MS, OUT_MG };

const ic_train_inplace ic_rmsprop_inplace[] = {{"ParamOut", "Param"},
                                               {"MomentOut", "Moment"},
                                               {"MeanSquareOut", "MeanSquare"},
                                               {"MeanGradOut", "MeanGrad"},
                                               {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  rmsprop_attrs *a = attrs;
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-10);
  a->decay = (float)ic_ar_float(r, "decay", 0.9);
  a->momentum = (float)ic_ar_float(r, "momentum", 0.0);
  a->centered = ic_ar_bool(r, "centered", false);
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const rmsprop_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  if (a->centered && (!ic_in(c, IN_MG, 0) || !ic_out(c, OUT_MG, 0))) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "centered needs MeanGrad and MeanGradOut");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_same(c, IN_MS, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_MOM, 0, IN_PARAM)) ||
      (a->centered && (st = ic_train_same(c, IN_MG, 0, IN_PARAM))) ||
      (st = ic_train_scalar(c, IN_LR, p->dtype))) {
    return st;
  }
  for (int k = OUT_PARAM; k <= OUT_MG; k++) {
    if (ic_out(c, k, 0)) ic_tensor_set_meta(ic_out(c, k, 0), p->dtype, p->ndim, p->dims);
  }
  return IC_OK;
}

#define STEP(T, SQRT)                                                                      \
  do {                                                                                     \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict msp = ic_in(c, IN_MS, 0)->data,                            \
                      *restrict mop = ic_in(c, IN_MOM, 0)->data;                           \
    const T *restrict mgp = a->centered ? ic_in(c, IN_MG, 0)->data : NULL;                 \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict moo = ic_out(c, OUT_MOM, 0)->data, \
      *restrict mso = ic_out(c, OUT_MS, 0)->data;                                          \
    T *restrict mgo = a->centered ? ic_out(c, OUT_MG, 0)->data : NULL;                     \
    const T lr = *(const T *)ic_in(c, IN_LR, 0)->data, rho = (T)a->decay,                  \
            eps = (T)a->epsilon, mom = (T)a->momentum;                                     \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = gp[i], ms = rho * msp[i] + (1 - rho) * g * g, mv;                              \
      mso[i] = ms;                                                                         \
      if (mgp) {                                                                           \
        T mg = rho * mgp[i] + (1 - rho) * g;                                               \
        mgo[i] = mg;                                                                       \
        mv = mom * mop[i] + lr * g / SQRT(ms - mg * mg + eps);                             \
      } else {                                                                             \
        mv = mom * mop[i] + lr * g / SQRT(ms + eps);                                       \
      }                                                                                    \
      moo[i] = mv;                                                                         \
      po[i] = pp[i] - mv;                                                                  \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const rmsprop_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  static const int like[] = {IN_PARAM, IN_MOM, IN_MS, IN_MG};
  for (int k = OUT_PARAM; k <= OUT_MG; k++) {
    if (k == OUT_MG && !a->centered) continue;
    ic_status st = ic_train_own(c, ic_out(c, k, 0), ic_in(c, like[k], 0));
    if (st) return st;
  }
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) STEP(float, sqrtf);
  else STEP(double, sqrt);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", 0},        {"MeanSquare", 0}, {"MeanGrad", IC_SLOT_OPTIONAL},
    {"LearningRate", 0}, {"Grad", 0},       {"Moment", 0},
    {"MasterParam", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"MomentOut", IC_SLOT_SHARE},
    {"MeanSquareOut", IC_SLOT_SHARE},
    {"MeanGradOut", IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_rmsprop = {
    .name = "rmsprop",
    .n_inputs = 7, .inputs = inputs,
    .n_outputs = 5, .outputs = outputs,
    .attrs_size = sizeof(rmsprop_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
