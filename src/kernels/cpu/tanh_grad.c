/* tanh_grad: X@GRAD = Out@GRAD * (1 - Out^2) (phi TanhGradFunctor, from the forward Out),
 * in Out's precision. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *o = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (g->dtype != o->dtype || !ic_dims_equal(g->ndim, g->dims, o->ndim, o->dims)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected %s like Out", ic_tensor_describe(o, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), o->dtype, o->ndim, o->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *o = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(dx);
  if (dx->dtype == IC_FP32) {
    const float *restrict op = o->data, *restrict gp = g->data;
    float *restrict p = dx->data;
    for (int64_t i = 0; i < n; i++) p[i] = gp[i] * (1 - op[i] * op[i]);
  } else {
    const double *restrict op = o->data, *restrict gp = g->data;
    double *restrict p = dx->data;
    for (int64_t i = 0; i < n; i++) p[i] = gp[i] * (1 - op[i] * op[i]);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_tanh_grad = {
    .name = "tanh_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
