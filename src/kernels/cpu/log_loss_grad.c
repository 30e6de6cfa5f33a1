/* log_loss_grad: Predicted@GRAD = Loss@GRAD * (-(Labels / (Predicted + epsilon)) +
 * (1 - Labels) / (1 - Predicted + epsilon)), elementwise over [N, 1] (phi LogLossGradKernel,
 * in the data's type, epsilon rounded to it). Inputs Predicted, Labels, Loss@GRAD; attribute
 * epsilon (float, default 1e-4); float32 and float64. Labels get no gradient. */
#include "kernels/kernel.h"

enum { IN_PRED, IN_LABELS, IN_G };
static const ic_slotdef k_inputs[3] = {{"Predicted", 0}, {"Labels", 0}, {"Loss@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"Predicted@GRAD", 0}};

typedef struct llg_attrs {
  float eps;
} llg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  llg_attrs *a = attrs;
  a->eps = (float)ic_ar_float(r, "epsilon", 1e-4);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PRED, 0);
  ic_status st = ic_kcheck_dtype(c, IN_PRED, 0, IC_DT_FLOAT);
  if (st) return st;
  if (p->ndim != 2 || p->dims[1] != 1) {
    return ic_kfail_in(c, IN_PRED, 0, "expected rank 2 with dim 1 equal to 1 ([N, 1])");
  }
  for (size_t s = IN_LABELS; s <= IN_G; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != p->dtype || !ic_dims_equal(p->ndim, p->dims, t->ndim, t->dims)) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected %s like Predicted",
                         ic_tensor_describe(p, d, sizeof d));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), p->dtype, p->ndim, p->dims);
  return IC_OK;
}

#define LLG(T)                                                                             \
  do {                                                                                     \
    const T *pp = p->data, *lp = l->data, *gp = g->data, e = (T)a->eps;                    \
    T *dp = dx->data;                                                                      \
    for (int64_t i = 0; i < n; i++) {                                                      \
      dp[i] = gp[i] * (-(lp[i] / (pp[i] + e)) + (1 - lp[i]) / (1 - pp[i] + e));            \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const llg_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PRED, 0), *l = ic_in(c, IN_LABELS, 0), *g = ic_in(c, IN_G, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) LLG(float);
  else LLG(double);
  return IC_OK;
}

const ic_opdef ic_op_log_loss_grad = {
    .name = "log_loss_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(llg_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
