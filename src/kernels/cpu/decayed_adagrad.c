/* decayed_adagrad: one decayed-Adagrad step (Paddle's DecayedAdagradOpKernel, CPU; float32
 * only, as Paddle registers it), with decay (default 0.95) and epsilon (1e-6):
 *   MomentOut = decay Moment + (1 - decay) Grad Grad
 *   ParamOut  = Param - LearningRate Grad / (sqrt(MomentOut) + epsilon)
 * ParamOut and MomentOut update Param and Moment in place (ic_decayed_adagrad_inplace,
 * train.h). Paddle's kernel takes a dense Grad only: one declared SelectedRows is refused. */
#include <math.h>

#include "kernels/cpu/train.h"

typedef struct decayed_adagrad_attrs {
  float decay, epsilon;
} decayed_adagrad_attrs;

enum { IN_PARAM, IN_GRAD, IN_MOMENT, IN_LR };
enum { OUT_PARAM, OUT_MOMENT };

const ic_train_inplace ic_decayed_adagrad_inplace[] = {
    {"ParamOut", "Param"}, {"MomentOut", "Moment"}, {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  decayed_adagrad_attrs *a = attrs;
  a->decay = (float)ic_ar_float(r, "decay", 0.95);
  a->epsilon = (float)ic_ar_float(r, "epsilon", 1e-6);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT(IC_FP32))) ||
      (st = ic_train_same(c, IN_GRAD, 0, IN_PARAM)) ||
      (st = ic_train_same(c, IN_MOMENT, 0, IN_PARAM)) || (st = ic_train_scalar(c, IN_LR, IC_FP32))) {
    return st;
  }
  ic_tensor_set_meta(ic_out(c, OUT_PARAM, 0), p->dtype, p->ndim, p->dims);
  ic_tensor_set_meta(ic_out(c, OUT_MOMENT, 0), p->dtype, p->ndim, p->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const decayed_adagrad_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0), *m = ic_in(c, IN_MOMENT, 0);
  ic_status st;
  if ((st = ic_train_own(c, ic_out(c, OUT_PARAM, 0), p)) ||
      (st = ic_train_own(c, ic_out(c, OUT_MOMENT, 0), m))) {
    return st;
  }
  const float *restrict pp = p->data, *restrict gp = ic_in(c, IN_GRAD, 0)->data,
                        *restrict mp = m->data;
  float *restrict po = ic_out(c, OUT_PARAM, 0)->data, *restrict mo = ic_out(c, OUT_MOMENT, 0)->data;
  const float lr = *(const float *)ic_in(c, IN_LR, 0)->data, decay = a->decay,
              eps = a->epsilon;
  const int64_t n = ic_tensor_numel_(p);
  for (int64_t i = 0; i < n; i++) {
    const float g = gp[i], mn = decay * mp[i] + (1 - decay) * g * g;
    mo[i] = mn;
    po[i] = pp[i] - lr * g / (sqrtf(mn) + eps);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Param", 0}, {"Grad", 0}, {"Moment", 0}, {"LearningRate", 0},
};
static const ic_slotdef outputs[] = {
    {"ParamOut", IC_SLOT_SHARE},
    {"MomentOut", IC_SLOT_SHARE},
};

const ic_opdef ic_op_decayed_adagrad = {
    .name = "decayed_adagrad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(decayed_adagrad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .resolve = ic_train_dense_grad_resolve,
};
