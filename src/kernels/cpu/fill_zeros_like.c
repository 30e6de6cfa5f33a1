/* fill_zeros_like: Out = zeros with X's dtype and dims (Paddle's backward pass emits it for
 * gradients that no op produces). X is read for its meta only. */
#include <string.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  ic_tensor *o = ic_out(c, 0, 0);
  memset(o->data, 0, (size_t)ic_tensor_numel_(o) * ic_dtype_size(o->dtype));
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fill_zeros_like = {
    .name = "fill_zeros_like",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
