/* mean_grad: X@GRAD = Out@GRAD (one value) / numel(X) everywhere, divided in X's dtype as
 * phi MeanAllGradKernel does. X is read for its dims. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != 1) {
    return ic_kfail_in(c, 1, 0, "expected one %s value", ic_dtype_name(x->dtype));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(dx);
  if (dx->dtype == IC_FP32) {
    float v = *(const float *)g->data / (float)n, *p = dx->data;
    for (int64_t i = 0; i < n; i++) p[i] = v;
  } else {
    double v = *(const double *)g->data / (double)n, *p = dx->data;
    for (int64_t i = 0; i < n; i++) p[i] = v;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_mean_grad = {
    .name = "mean_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
