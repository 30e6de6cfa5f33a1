/* proximal_adagrad: one proximal Adagrad step (fluid's ProximalAdagradOpKernel, CPU, float32;
 * neither Paddle 2.6.2 nor 3.3.1 registers the op any more: programs of older Paddle releases
 * carry it), with l1 and l2 (default 0) and lr = LearningRate:
 *   MomentOut = Moment + Grad^2
 *   prox      = Param - lr Grad / sqrt(MomentOut)
 *   ParamOut  = sign(prox) max(|prox| - lr l1, 0) / (1 + lr l2)   when l1 > 0
 *             = prox / (1 + lr l2)                                otherwise
 * ParamOut and MomentOut update Param and Moment in place (ic_proximal_adagrad_inplace,
 * train.h). The kernel takes a dense Grad only: one declared SelectedRows is refused. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct proximal_adagrad_attrs {
  float l1, l2;
} proximal_adagrad_attrs;

enum { IN_PARAM, IN_MOMENT, IN_GRAD, IN_LR };
enum { OUT_PARAM, OUT_MOMENT };

const ic_train_inplace ic_proximal_adagrad_inplace[] = {
    {"ParamOut", "Param"}, {"MomentOut", "Moment"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  proximal_adagrad_attrs *a = attrs;
  a->l1 = (float)ic_ar_float(r, "l1", 0.0);
  a->l2 = (float)ic_ar_float(r, "l2", 0.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT(IC_FP32))) ||
      (st = ic_train_same(c, IN_MOMENT, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, IC_FP32))) {
    return st;
  }
  ic_tensor_set_meta(ic_out(c, OUT_PARAM, 0), p->dtype, p->ndim, p->dims);
  ic_tensor_set_meta(ic_out(c, OUT_MOMENT, 0), p->dtype, p->ndim, p->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const proximal_adagrad_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0), *m = ic_in(c, IN_MOMENT, 0);
  ic_status st;
  if ((st = ic_train_own(c, ic_out(c, OUT_PARAM, 0), p)) ||
      (st = ic_train_own(c, ic_out(c, OUT_MOMENT, 0), m))) {
    return st;
  }
  const float *restrict pp = p->data, *restrict mp = m->data,
                        *restrict gp = ic_in(c, IN_GRAD, 0)->data;
  float *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict mo = ic_out(c, OUT_MOMENT, 0)->data;
  const float lr = *(const float *)ic_in(c, IN_LR, 0)->data;
  const float shrink = lr * a->l1, denom = 1.0f + lr * a->l2;
  const int64_t n = ic_tensor_numel_(p);
  for (int64_t i = 0; i < n; i++) {
    const float g = gp[i], mn = mp[i] + g * g;
    mo[i] = mn;
    const float prox = pp[i] - lr * g / sqrtf(mn);
    if (a->l1 > 0) {
      const float sign = prox > 0 ? 1.0f : (prox < 0 ? -1.0f : 0.0f);
      po[i] = sign * (fmaxf(fabsf(prox) - shrink, 0.0f) / denom);
    } else {
      po[i] = prox / denom;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", 0}, {"Moment", 0}, {"Grad", 0}, {"LearningRate", 0},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"MomentOut", IC_SLOT_SHARE},
};

const ic_opdef ic_op_proximal_adagrad = {
    .name = "proximal_adagrad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(proximal_adagrad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .resolve = ic_train_dense_grad_resolve,
};
