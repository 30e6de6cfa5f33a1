/* where_grad: X@GRAD = Condition ? Out@GRAD : 0 and Y@GRAD = Condition ? 0 : Out@GRAD
 * (phi WhereGradKernel), each output optional. Inputs Condition, X and Y (meta only),
 * Out@GRAD, all of one shape as the forward op requires; float32 and float64. */
#include <string.h>

#include "kernels/kernel.h"

static const ic_slotdef k_inputs[4] = {{"Condition", 0},
                                       {"X", IC_SLOT_NO_BUFFER},
                                       {"Y", IC_SLOT_NO_BUFFER},
                                       {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Y@GRAD", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_BOOL));
  if (st || (st = ic_kcheck_dtype(c, 3, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *g = ic_in(c, 3, 0);
  for (size_t s = 0; s < 3; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!ic_dims_equal(t->ndim, t->dims, g->ndim, g->dims)) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected dims %s, those of Out@GRAD",
                         ic_dims_str(g->ndim, g->dims, d, sizeof d));
    }
  }
  for (size_t s = 0; s < 2; s++) {
    ic_tensor *o = ic_out(c, s, 0);
    if (o) ic_tensor_set_meta(o, g->dtype, g->ndim, g->dims);
  }
  return IC_OK;
}

#define WHERE_GRAD(T)                                                                      \
  do {                                                                                     \
    const T *gp = g->data;                                                                 \
    T *xp = dx ? dx->data : NULL, *yp = dy ? dy->data : NULL;                              \
    for (int64_t i = 0; i < n; i++) {                                                      \
      if (xp) xp[i] = cp[i] ? gp[i] : (T)0;                                                \
      if (yp) yp[i] = cp[i] ? (T)0 : gp[i];                                                \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *cond = ic_in(c, 0, 0), *g = ic_in(c, 3, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  const uint8_t *cp = cond->data;
  int64_t n = ic_tensor_numel_(g);
  if (g->dtype == IC_FP32) WHERE_GRAD(float);
  else WHERE_GRAD(double);
  return IC_OK;
}

const ic_opdef ic_op_where_grad = {
    .name = "where_grad", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
