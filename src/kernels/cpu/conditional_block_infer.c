/* conditional_block_infer: the form of conditional_block that Paddle's inference passes
 * write into optimized programs. It has the same slots (Cond, Input; Out, Scope) and
 * attributes (sub_block, is_scalar_condition) and runs its block under the same rule; it only
 * keeps no scope for a gradient, which icore's executors never need for it (no
 * conditional_block_grad reads one). The analysis classifies it with conditional_block
 * (ic_ctrl_kind_of): the same sub-plan, the same widening of Input and Out. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  return ic_kfail(c, IC_ERR_INTERNAL,
                  "conditional_block_infer runs only under an executor (it has a sub-block)");
}

static const ic_slotdef inputs[] = {{"Cond", IC_SLOT_MULTI},
                                    {"Input", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                     {"Scope", IC_SLOT_OPTIONAL | IC_SLOT_ARRAY}};

const ic_opdef ic_op_conditional_block_infer = {
    .name = "conditional_block_infer",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_SUBBLOCK,
};
