/* bce_loss_grad (phi BCELossGradKernel): X@GRAD = Out@GRAD * (X - Label) / max((1 - X) * X,
 * 1e-12), in the dtype's arithmetic. float32, float64. */
#include "kernels/kernel.h"

enum { IN_X, IN_LABEL, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  for (size_t s = IN_LABEL; s <= IN_DOUT; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, x->ndim, x->dims)) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
    }
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define BCEG(T)                                                                 \
  do {                                                                          \
    const T *xp = x->data, *lp = l->data, *gp = g->data;                        \
    T *o = dx->data;                                                            \
    const T eps = (T)1e-12;                                                     \
    for (int64_t i = 0; i < n; i++) {                                           \
      T t = ((T)1 - xp[i]) * xp[i];                                             \
      if (t < eps) t = eps;                                                     \
      o[i] = gp[i] * (xp[i] - lp[i]) / t;                                       \
    }                                                                           \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  if (!dx) return IC_OK;
  const int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP64) BCEG(double);
  else BCEG(float);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Label", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_bce_loss_grad = {
    .name = "bce_loss_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
