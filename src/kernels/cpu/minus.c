/* minus: Out = X - Y elementwise, X and Y of the same dims and dtype, no broadcasting
 * (paddle/fluid/operators/minus_op.cc, Paddle 2.x). float32 (Paddle's kernel) and float64. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  bool same = y->dtype == x->dtype && y->ndim == x->ndim;
  for (int d = 0; same && d < x->ndim; d++) same = y->dims[d] == x->dims[d];
  if (!same) {
    char b[128];
    return ic_kfail_in(c, 1, 0, "expected X's dtype and dims (%s%s)", ic_dtype_name(x->dtype),
                       ic_dims_str(x->ndim, x->dims, b, sizeof b));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) {
    const float *a = x->data, *b = y->data;
    float *r = o->data;
    for (int64_t i = 0; i < n; i++) r[i] = a[i] - b[i];
  } else {
    const double *a = x->data, *b = y->data;
    double *r = o->data;
    for (int64_t i = 0; i < n; i++) r[i] = a[i] - b[i];
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_minus = {
    .name = "minus", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
