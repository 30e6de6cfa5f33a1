/* atan2_grad: with r = X1^2 + X2^2, X1@GRAD = Out@GRAD * X2 / r and X2@GRAD = -Out@GRAD * X1
 * / r, elementwise (phi Atan2GradKernel; atan2 does not broadcast, so all tensors share one
 * dims). Inputs X1, X2, Out@GRAD; outputs X1@GRAD, X2@GRAD, each optional; float32 and
 * float64 in the data's type. */
#include "kernels/kernel.h"

static const ic_slotdef k_inputs[3] = {{"X1", 0}, {"X2", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X1@GRAD", IC_SLOT_OPTIONAL},
                                        {"X2@GRAD", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 2, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *g = ic_in(c, 2, 0);
  for (size_t s = 0; s < 2; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != g->dtype || !ic_dims_equal(t->ndim, t->dims, g->ndim, g->dims)) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected %s like Out@GRAD (atan2 does not broadcast)",
                         ic_tensor_describe(g, d, sizeof d));
    }
  }
  for (size_t s = 0; s < 2; s++) {
    ic_tensor *o = ic_out(c, s, 0);
    if (o) ic_tensor_set_meta(o, g->dtype, g->ndim, g->dims);
  }
  return IC_OK;
}

#define ATAN2_GRAD(T)                                                                      \
  do {                                                                                     \
    const T *ap = a->data, *bp = b->data, *gp = g->data;                                   \
    T *d1 = dx1 ? dx1->data : NULL, *d2 = dx2 ? dx2->data : NULL;                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T r = ap[i] * ap[i] + bp[i] * bp[i];                                           \
      if (d1) d1[i] = gp[i] * bp[i] / r;                                                   \
      if (d2) d2[i] = -gp[i] * ap[i] / r;                                                  \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *a = ic_in(c, 0, 0), *b = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx1 = ic_out(c, 0, 0), *dx2 = ic_out(c, 1, 0);
  const int64_t n = ic_tensor_numel_(g);
  if (g->dtype == IC_FP32) ATAN2_GRAD(float);
  else ATAN2_GRAD(double);
  return IC_OK;
}

const ic_opdef ic_op_atan2_grad = {
    .name = "atan2_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
