/* prelu_grad: X@GRAD = Out@GRAD where X > 0, alpha Out@GRAD elsewhere; Alpha@GRAD = the sum of
 * X Out@GRAD over the elements with X <= 0 that use each alpha (phi PReluGradKernel),
 * accumulated in the data's type in element order. Inputs X, Alpha, Out@GRAD; outputs
 * X@GRAD and Alpha@GRAD (each optional); prelu's attributes (mode, data_format). */
#include <string.h>

#include "kernels/cpu/activation.h"

static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Alpha", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Alpha@GRAD", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  const prelu_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *al = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  if (al->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected X's dtype");
  if (a->mode != IC_PRELU_ALL && x->ndim < (a->mode == IC_PRELU_CHANNEL ? 2 : 1)) {
    return ic_kfail_in(c, 0, 0, "expected rank >= %d for this mode",
                       a->mode == IC_PRELU_CHANNEL ? 2 : 1);
  }
  int64_t na, inner;
  ic_prelu_plan(a, x, &na, &inner);
  if (ic_numel(al->ndim, al->dims) != na) {
    return ic_kfail_in(c, 1, 0, "expected %lld values for the mode", (long long)na);
  }
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, 2, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  if (ic_out(c, 0, 0)) ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), al->dtype, al->ndim, al->dims);
  return IC_OK;
}

#define PRELU_GRAD(T)                                                                      \
  do {                                                                                     \
    const T *xp = x->data, *ap = al->data, *gp = g->data;                                  \
    T *dxp = dx ? dx->data : NULL, *dap = da ? da->data : NULL;                            \
    if (dap) {                                                                             \
      for (int64_t k = 0; k < na; k++) dap[k] = 0;                                         \
    }                                                                                      \
    for (int64_t i = 0; i < n; i++) {                                                      \
      int64_t k = a->mode == IC_PRELU_ALL ? 0 : (i / inner) % na;                          \
      if (dxp) dxp[i] = xp[i] > 0 ? gp[i] : ap[k] * gp[i];                                 \
      if (dap && !(xp[i] > 0)) dap[k] += xp[i] * gp[i];                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const prelu_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *al = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *da = ic_out(c, 1, 0);
  int64_t n = ic_numel(x->ndim, x->dims), na, inner;
  ic_prelu_plan(a, x, &na, &inner);
  if (x->dtype == IC_FP32) PRELU_GRAD(float);
  else PRELU_GRAD(double);
  return IC_OK;
}

const ic_opdef ic_op_prelu_grad = {
    .name = "prelu_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(prelu_attrs), .parse = ic_prelu_parse,
    .infer = infer, .cpu = run,
};
