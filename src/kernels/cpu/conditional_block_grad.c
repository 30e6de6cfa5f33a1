/* conditional_block_grad: the gradient of a conditional_block (Paddle's
 * ConditionalBlockGradOp). When Cond holds (decided as the forward decides), it runs its
 * sub_block (the grad block; its forward_block is the conditional_block's) over what the
 * forward kept in Scope, then sets Input@GRAD[i] to the grad block's gradient of Input[i],
 * or to zeros shaped like Input[i] where the block computed none; when Cond does not hold,
 * every Input@GRAD[i] whose Input[i] holds elements becomes zeros. Like conditional_block it
 * has no kernel of its own (IC_OP_SUBBLOCK); docs/DESIGN.md, "Gradients of control flow".
 * Input is widened by analysis to every outer variable the grad block reads, Input@GRAD to
 * every one it writes. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  return ic_kfail(c, IC_ERR_INTERNAL,
                  "conditional_block_grad runs only under an executor (it has a sub-block)");
}

static const ic_slotdef inputs[] = {{"Cond", IC_SLOT_MULTI},
                                    {"Input", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                    {"Out", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
                                    {"Out@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                    {"Scope", IC_SLOT_ARRAY}};
static const ic_slotdef outputs[] = {{"Input@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_conditional_block_grad = {
    .name = "conditional_block_grad",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_SUBBLOCK,
};
