/* is_empty: Out (bool, 0-D as Paddle 2.6 has it) = whether X has no element. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_BOOL, 0, NULL);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  *(uint8_t *)ic_out(c, 0, 0)->data = ic_tensor_numel_(ic_in(c, 0, 0)) == 0;
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_is_empty = {
    .name = "is_empty",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
