/* real (paddle.real; phi RealKernel): the real part of complex X (complex64 -> float32,
 * complex128 -> float64). */
#include "kernels/cpu/complexutil.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_COMPLEX)) return c->err->code;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_complex_part_dtype(x->dtype), x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_COMPLEX64) {
    for (int64_t i = 0; i < n; i++) ((float *)o->data)[i] = ((const float *)x->data)[2 * i + 0];
  } else {
    for (int64_t i = 0; i < n; i++) ((double *)o->data)[i] = ((const double *)x->data)[2 * i + 0];
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_real = {
    .name = "real", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
