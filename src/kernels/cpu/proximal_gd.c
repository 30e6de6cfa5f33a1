/* proximal_gd: one proximal gradient-descent step (Paddle 2.6.2's ProximalGDOpKernel, CPU;
 * float32 only, as Paddle registers it; Paddle 3.3.1 no longer has the op), with l1 and l2
 * (default 0) and lr = LearningRate:
 *   prox     = Param - lr Grad
 *   ParamOut = sign(prox) max(|prox| - lr l1, 0) / (1 + lr l2)   when l1 > 0
 *            = prox / (1 + lr l2)                                otherwise
 * ParamOut updates Param in place (ic_proximal_gd_inplace, train.h). Paddle's kernel takes a
 * dense Grad only: one declared SelectedRows is refused. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct proximal_gd_attrs {
  float l1, l2;
} proximal_gd_attrs;

enum { IN_PARAM, IN_GRAD, IN_LR };

const ic_train_inplace ic_proximal_gd_inplace[] = {{"ParamOut", "Param"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  proximal_gd_attrs *a = attrs;
  a->l1 = (float)ic_ar_float(r, "l1", 0.0);
  a->l2 = (float)ic_ar_float(r, "l2", 0.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT(IC_FP32))) ||
      (st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, IC_FP32))) {
    return st;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), p->dtype, p->ndim, p->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const proximal_gd_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_train_own(c, ic_out(c, 0, 0), p))) return st;
  const float *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data;
  float *restrict po = ic_out(c, 0, 0)->data;
  const float lr = *(const float *)ic_in(c, IN_LR, 0)->data;
  const float shrink = lr * a->l1, denom = 1.0f + lr * a->l2;
  const int64_t n = ic_tensor_numel_(p);
  for (int64_t i = 0; i < n; i++) {
    const float prox = pp[i] - lr * gp[i];
    if (a->l1 > 0) {
      const float sign = prox > 0 ? 1.0f : (prox < 0 ? -1.0f : 0.0f);
      po[i] = sign * (fmaxf(fabsf(prox) - shrink, 0.0f) / denom);
    } else {
      po[i] = prox / denom;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Param", 0}, {"Grad", 0}, {"LearningRate", 0}};
static const ic_slotdef outputs[] = {{"ParamOut", IC_SLOT_SHARE}};

const ic_opdef ic_op_proximal_gd = {
    .name = "proximal_gd",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(proximal_gd_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .resolve = ic_train_dense_grad_resolve,
};
