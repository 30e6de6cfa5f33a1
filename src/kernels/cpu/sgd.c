/* sgd: ParamOut = Param - LearningRate * Grad (phi SGDDenseKernel), in Param's dtype.
 * LearningRate holds one float32 or float64 value, cast to Param's dtype (Paddle's executor
 * transforms a float32 learning rate for a float64 parameter's kernel so). ParamOut updates
 * Param in place (train.h): Paddle's programs name the same variable in both. MasterParam /
 * MasterParamOut (multi_precision, float16 parameters) and SelectedRows gradients are not
 * supported. */
#include "kernels/cpu/train.h"

typedef struct sgd_attrs {
  bool multi_precision;
} sgd_attrs;

enum { IN_PARAM, IN_LR, IN_GRAD, IN_MASTER };

/* The in-place pairs of this op (train.h). */
const ic_train_inplace ic_sgd_inplace[] = {{"ParamOut", "Param"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  sgd_attrs *a = attrs;
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || ((const sgd_attrs *)c->attrs)->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (MasterParam) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM))) return st;
  if ((st = ic_train_scalar(c, IN_LR, ic_in(c, IN_LR, 0)->dtype == IC_FP64 ? IC_FP64 : IC_FP32)))
    return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), p->dtype, p->ndim, p->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0), *lr = ic_in(c, IN_LR, 0),
                  *g = ic_in(c, IN_GRAD, 0);
  ic_tensor *po = ic_out(c, 0, 0);
  ic_status st = ic_train_own(c, po, p);
  if (st) return st;
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) {
    const float *restrict pp = p->data, *restrict gp = g->data;
    float *restrict o = po->data, l = (float)ic_read_f64(lr, 0);
    for (int64_t i = 0; i < n; i++) o[i] = pp[i] - l * gp[i];
  } else {
    const double *restrict pp = p->data, *restrict gp = g->data;
    double *restrict o = po->data, l = ic_read_f64(lr, 0);
    for (int64_t i = 0; i < n; i++) o[i] = pp[i] - l * gp[i];
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", 0},
    {"LearningRate", 0},
    {"Grad", 0},
    {"MasterParam", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"MasterParamOut", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_sgd = {
    .name = "sgd",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(sgd_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
