/* squared_l2_norm_grad: X@GRAD = 2 X Out@GRAD, Out@GRAD holding one value (phi
 * SquaredL2NormGradKernel). Inputs X, Out@GRAD; float32 and float64. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != 1) {
    return ic_kfail_in(c, 1, 0, "expected one %s value", ic_dtype_name(x->dtype));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) {
    const float *xp = x->data, gv = *(const float *)g->data;
    float *dp = dx->data;
    for (int64_t i = 0; i < n; i++) dp[i] = 2.0f * xp[i] * gv;
  } else {
    const double *xp = x->data, gv = *(const double *)g->data;
    double *dp = dx->data;
    for (int64_t i = 0; i < n; i++) dp[i] = 2.0 * xp[i] * gv;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_squared_l2_norm_grad = {
    .name = "squared_l2_norm_grad", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
