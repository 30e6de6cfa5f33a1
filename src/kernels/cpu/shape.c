/* shape: Out = the dims of Input as a 1-D int32 tensor (Paddle's ShapeInferMeta /
 * ShapeKernel). Input is read for its meta only, so it is IC_SLOT_NO_BUFFER: its buffer may
 * be freed before this op runs, and a meta-only variable such as an XShape is accepted.
 * Paddle's CPU kernel refuses float16 inputs only for lack of a registration; any dtype is
 * fine here since no element is read. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  for (int i = 0; i < x->ndim; i++) {
    if (x->dims[i] > INT32_MAX) {
      /* Paddle would wrap the value around; refuse rather than report a wrong shape. */
      return ic_kfail_in(c, 0, 0, "dim %d does not fit the int32 output", i);
    }
  }
  int64_t n = x->ndim;
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT32, 1, &n);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  int32_t *o = ic_out(c, 0, 0)->data;
  for (int i = 0; i < x->ndim; i++) o[i] = (int32_t)x->dims[i];
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_shape = {
    .name = "shape",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
