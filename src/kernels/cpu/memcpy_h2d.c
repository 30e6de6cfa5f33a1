/* memcpy_h2d: Out (on the device) = X (on the host). Analysis inserts it where a host value
 * meets a device op; the executor runs it through the device backend's stream-ordered copy.
 * Its CPU function copies host to host (the emulated device's memory is host memory). */
#include <string.h>

#include "kernels/kernel.h"

ic_status ic_copy_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_copy_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  size_t n = (size_t)ic_numel(x->ndim, x->dims) * ic_dtype_size(x->dtype);
  if (n) memcpy(o->data, x->data, n);
  return IC_OK;
}

const ic_slotdef ic_copy_inputs[1] = {{"X", 0}};
const ic_slotdef ic_copy_outputs[1] = {{"Out", 0}};

const ic_opdef ic_op_memcpy_h2d = {
    .name = "memcpy_h2d",
    .n_inputs = 1, .inputs = ic_copy_inputs,
    .n_outputs = 1, .outputs = ic_copy_outputs,
    .infer = ic_copy_infer, .cpu = ic_copy_cpu,
    .flags = IC_OP_COPY,
};
