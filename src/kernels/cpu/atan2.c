/* atan2: Out = atan2(X1, X2) elementwise, X1 and X2 of one dims (Paddle's Atan2InferMeta does
 * not broadcast); float32 and float64 in their precision, int32 and int64 computed in double
 * into a float64 Out (paddle/phi/kernels/impl/atan2_kernel_impl.h). */
#include <math.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *a = ic_in(c, 0, 0), *b = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  if (b->dtype != a->dtype) return ic_kfail_in(c, 1, 0, "expected X1's dtype");
  if (!ic_dims_equal(a->ndim, a->dims, b->ndim, b->dims)) {
    return ic_kfail_in(c, 1, 0, "expected X1's dims (atan2 does not broadcast)");
  }
  const bool integer = a->dtype == IC_INT32 || a->dtype == IC_INT64;
  ic_tensor_set_meta(ic_out(c, 0, 0), integer ? IC_FP64 : a->dtype, a->ndim, a->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *a = ic_in(c, 0, 0), *b = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(a);
  if (a->dtype == IC_FP32) {
    const float *x = a->data, *y = b->data;
    float *z = o->data;
    for (int64_t i = 0; i < n; i++) z[i] = atan2f(x[i], y[i]);
  } else {
    double *z = o->data;
    for (int64_t i = 0; i < n; i++) z[i] = atan2(ic_read_f64(a, i), ic_read_f64(b, i));
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X1", 0}, {"X2", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_atan2 = {
    .name = "atan2", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
