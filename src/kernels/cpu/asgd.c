/* asgd: one ASGD step (phi ASGDKernel, CPU), in param's dtype:
 *   d_out = d - y + grad,  y_out = grad,  param_out = param - (learning_rate / n) d_out
 * learning_rate and n hold one value each (paddle.optimizer.ASGD feeds n = min(step,
 * batch_num) and y = the gradient stored batch_num steps ago). param_out, d_out and y_out
 * update param, d and y in place (ic_asgd_inplace, train.h). multi_precision (master_param)
 * is not supported: Paddle uses it only for float16 / bfloat16 parameters. Paddle 3.3.1's
 * paddle.optimizer.ASGD cannot build a legacy (non-PIR) program (its Python indexes a
 * Variable with .item()), so icore meets this op in hand-built programs only. */
#include "kernels/cpu/train.h"

typedef struct asgd_attrs {
  bool multi_precision;
} asgd_attrs;

enum { IN_PARAM, IN_GRAD, IN_LR, IN_D, IN_Y, IN_N, IN_MASTER };
enum { OUT_PARAM, OUT_D, OUT_Y, OUT_MASTER };

const ic_train_inplace ic_asgd_inplace[] = {
    {"param_out", "param"}, {"d_out", "d"}, {"y_out", "y"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  asgd_attrs *a = attrs;
  a->multi_precision = ic_ar_bool(r, "multi_precision", false);
  return r->st;
}

static const int k_like[] = {IN_PARAM, IN_D, IN_Y};

static ic_status infer(ic_kctx *c) {
  const asgd_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  if (ic_in(c, IN_MASTER, 0) || a->multi_precision) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "multi_precision (master_param) is not supported");
  }
  if ((st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_same(c, IN_D, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_Y, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, p->dtype)) ||
      (st = ic_train_scalar(c, IN_N, p->dtype))) {
    return st;
  }
  for (int k = OUT_PARAM; k <= OUT_Y; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), p->dtype, p->ndim, p->dims);
  }
  return IC_OK;
}

#define STEP(T)                                                                            \
  do {                                                                                     \
    const T step = *(const T *)ic_in(c, IN_LR, 0)->data / *(const T *)ic_in(c, IN_N, 0)->data; \
    const T *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,             \
                      *restrict dp = ic_in(c, IN_D, 0)->data,                              \
                      *restrict yp = ic_in(c, IN_Y, 0)->data;                              \
    T *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict dO = ic_out(c, OUT_D, 0)->data, \
      *restrict yo = ic_out(c, OUT_Y, 0)->data;                                            \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T g = gp[i], dn = dp[i] - yp[i] + g;                                                 \
      dO[i] = dn;                                                                          \
      yo[i] = g;                                                                           \
      po[i] = pp[i] - step * dn;                                                           \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  for (int k = OUT_PARAM; k <= OUT_Y; k++) {
    ic_status st = ic_train_own(c, ic_out(c, k, 0), ic_in(c, k_like[k], 0));
    if (st) return st;
  }
  int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) STEP(float);
  else STEP(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"param", 0}, {"grad", 0}, {"learning_rate", 0}, {"d", 0},
    {"y", 0},     {"n", 0},    {"master_param", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"param_out", IC_SLOT_SHARE},
    {"d_out", IC_SLOT_SHARE},
    {"y_out", IC_SLOT_SHARE},
    {"master_param_out", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER},
};

const ic_opdef ic_op_asgd = {
    .name = "asgd",
    .n_inputs = 7, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(asgd_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
