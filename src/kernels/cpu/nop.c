/* nop (Paddle's placeholder op, kept by some passes): does nothing; its X and Out, when the
 * program names them, only order it. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_NO_BUFFER}};

const ic_opdef ic_op_nop = {
    .name = "nop", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
