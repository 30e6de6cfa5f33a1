/* huber_loss_grad: from huber_loss's Residual r = Y - X, X@GRAD = -g' Out@GRAD and
 * Y@GRAD = g' Out@GRAD with g' = r where |r| <= delta, else delta * sign(r) (phi
 * HuberLossGradKernel: the derivative times Out@GRAD, in Residual's precision). Either
 * output may be absent. */
#include <math.h>

#include "kernels/kernel.h"

typedef struct huber_attrs {
  double delta;
} huber_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  huber_attrs *a = attrs;
  a->delta = (float)ic_ar_float(r, "delta", 1.0);
  return r->st;
}

enum { IN_RES, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *r = ic_in(c, IN_RES, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_status st = ic_kcheck_dtype(c, IN_RES, 0, IC_DT_FLOAT);
  if (st) return st;
  if (g->dtype != r->dtype || !ic_dims_equal(g->ndim, g->dims, r->ndim, r->dims)) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s like Residual",
                       ic_tensor_describe(r, d, sizeof d));
  }
  for (int k = 0; k < 2; k++) {
    ic_tensor *o = ic_out(c, k, 0);
    if (o) ic_tensor_set_meta(o, r->dtype, r->ndim, r->dims);
  }
  return IC_OK;
}

#define GRAD(T, FABS)                                                                      \
  do {                                                                                     \
    const T *restrict rp = r->data, *restrict gp = g->data;                                \
    T *restrict dxp = dx ? dx->data : NULL, *restrict dyp = dy ? dy->data : NULL;          \
    const T d = (T)a->delta;                                                               \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T v = rp[i];                                                                         \
      T up = FABS(v) <= d ? v : v > 0 ? d : -d; /* the derivative in Y */                  \
      if (dxp) dxp[i] = gp[i] * -up;                                                       \
      if (dyp) dyp[i] = gp[i] * up;                                                        \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const huber_attrs *a = c->attrs;
  const ic_tensor *r = ic_in(c, IN_RES, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  int64_t n = ic_tensor_numel_(r);
  if (r->dtype == IC_FP32) GRAD(float, fabsf);
  else GRAD(double, fabs);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Residual", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}, {"Y@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_huber_loss_grad = {
    .name = "huber_loss_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(huber_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
