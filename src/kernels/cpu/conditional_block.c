/* conditional_block: runs its sub_block once or not at all. With is_scalar_condition the
 * single Cond tensor must be a one-element bool and decides; otherwise the block runs when
 * every Cond tensor has at least one element (Paddle's rule). Outputs the block does not
 * run leave their variables as they were (select_input picks a branch's value). Like
 * while, it has no kernel of its own (IC_OP_SUBBLOCK); Input and Out are widened by
 * analysis to every outer variable the block reads and writes. Scope: when a
 * conditional_block_grad of the plan reads it, the executor keeps there what the grad block
 * reads of the block's variables (docs/DESIGN.md, "Gradients of control flow"). */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  return ic_kfail(c, IC_ERR_INTERNAL,
                  "conditional_block runs only under an executor (it has a sub-block)");
}

static const ic_slotdef inputs[] = {{"Cond", IC_SLOT_MULTI},
                                    {"Input", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                     {"Scope", IC_SLOT_OPTIONAL | IC_SLOT_ARRAY}};

const ic_opdef ic_op_conditional_block = {
    .name = "conditional_block",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_SUBBLOCK,
};
