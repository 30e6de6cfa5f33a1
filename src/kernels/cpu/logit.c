/* logit: Out = log(p / (1 - p)) with p = X clipped to [eps, 1 - eps] when eps is not 0 (else
 * X itself: NaN outside [0, 1]), in X's precision (paddle/phi/kernels/impl/logit_kernel_impl.h).
 * float32, float64. */
#include <math.h>

#include "kernels/kernel.h"

typedef struct logit_attrs {
  double eps;
} logit_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  logit_attrs *a = attrs;
  a->eps = (float)ic_ar_float(r, "eps", 1e-6);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const logit_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) {
    const float lo = (float)a->eps, hi = 1.0f - (float)a->eps;
    const float *xd = x->data;
    float *od = o->data;
    for (int64_t i = 0; i < n; i++) {
      float p = xd[i];
      if (a->eps != 0) p = p < lo ? lo : p > hi ? hi : p;
      od[i] = logf(p / (1.0f - p));
    }
  } else {
    const double lo = a->eps, hi = 1.0 - a->eps;
    const double *xd = x->data;
    double *od = o->data;
    for (int64_t i = 0; i < n; i++) {
      double p = xd[i];
      if (a->eps != 0) p = p < lo ? lo : p > hi ? hi : p;
      od[i] = log(p / (1.0 - p));
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_logit = {
    .name = "logit", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(logit_attrs), .parse = parse, .infer = infer, .cpu = run,
};
