/* huber_loss (what paddle.nn.functional.smooth_l1_loss emits in static mode): Residual =
 * Y - X and Out = 0.5 r^2 where |r| <= delta, else delta (|r| - 0.5 delta), element by
 * element in X's precision (phi HuberLossKernel). X and Y have one dtype and equal dims; Out
 * and Residual take them. */
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

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (y->dtype != x->dtype || !ic_dims_equal(y->ndim, y->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  ic_tensor *res = ic_out(c, 1, 0);
  if (res) ic_tensor_set_meta(res, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define HUBER(T, FABS)                                                                     \
  do {                                                                                     \
    const T *restrict xp = x->data, *restrict yp = y->data;                                \
    T *restrict o = out->data, *restrict rp = res ? res->data : NULL;                      \
    const T d = (T)a->delta;                                                               \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T r = yp[i] - xp[i], ar = FABS(r);                                                   \
      if (rp) rp[i] = r;                                                                   \
      o[i] = ar <= d ? (T)0.5 * r * r : d * (ar - (T)0.5 * d);                             \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const huber_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0), *res = ic_out(c, 1, 0);
  int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) HUBER(float, fabsf);
  else HUBER(double, fabs);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Residual", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_huber_loss = {
    .name = "huber_loss",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(huber_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
