/* l1_norm_grad: X@GRAD = sign(X) Out@GRAD (sign 0 at 0), Out@GRAD holding one value
 * (paddle/fluid/operators/l1_norm_op.h). Inputs X, Out@GRAD; float32 and float64. */
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

#define SIGN(v) ((v) > 0 ? 1 : (v) < 0 ? -1 : 0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) {
    const float *xp = x->data, gv = *(const float *)g->data;
    float *dp = dx->data;
    for (int64_t i = 0; i < n; i++) dp[i] = (float)SIGN(xp[i]) * gv;
  } else {
    const double *xp = x->data, gv = *(const double *)g->data;
    double *dp = dx->data;
    for (int64_t i = 0; i < n; i++) dp[i] = (double)SIGN(xp[i]) * gv;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_l1_norm_grad = {
    .name = "l1_norm_grad", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
