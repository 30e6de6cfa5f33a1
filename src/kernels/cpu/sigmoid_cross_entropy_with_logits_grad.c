/* sigmoid_cross_entropy_with_logits_grad: X@GRAD = (sigmoid(X) - Label) * Out@GRAD, 0 where
 * (int)Label == ignore_index, divided by the count of labels not ignored with `normalize`
 * (phi SigmoidCrossEntropyWithLogitsGradKernel, CPU). pos_weight is not supported. */
#include <math.h>

#include "kernels/cpu/sigmoid_ce.h"

enum { IN_X, IN_LABEL, IN_POSW, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (ic_in(c, IN_POSW, 0)) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "input pos_weight is not supported");
  }
  for (int s = IN_LABEL; s <= IN_DOUT; s += 2) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, x->ndim, x->dims)) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define GRAD(T, EXP)                                                                       \
  do {                                                                                     \
    const T *restrict xp = x->data, *restrict lp = l->data, *restrict gp = g->data;        \
    T *restrict o = dx->data;                                                              \
    for (int64_t i = 0; i < n; i++) {                                                      \
      if ((int64_t)lp[i] == a->ignore_index) {                                             \
        o[i] = 0;                                                                          \
      } else {                                                                             \
        T s = (T)1 / ((T)1 + EXP(-xp[i]));                                                 \
        o[i] = (s - lp[i]) * gp[i];                                                        \
      }                                                                                    \
      if (a->normalize) o[i] = (T)(o[i] / norm);                                           \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const sce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const double norm = ic_sce_norm(a, l);
  int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) GRAD(float, expf);
  else GRAD(double, exp);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"Label", 0}, {"pos_weight", IC_SLOT_OPTIONAL}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_sigmoid_cross_entropy_with_logits_grad = {
    .name = "sigmoid_cross_entropy_with_logits_grad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(sce_attrs), .parse = ic_sce_parse,
    .infer = infer, .cpu = run,
};
