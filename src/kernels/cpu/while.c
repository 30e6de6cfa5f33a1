/* while: runs its sub_block while the one-element bool Condition is true; the body writes
 * Condition again. The op has no kernel of its own: both executors recognize
 * IC_OP_SUBBLOCK and run the sub-block (compiled: its sub-plan, see analysis/ctrlflow.c;
 * uncompiled: op by op). X and Out list the outer variables the body reads and writes, as
 * Paddle records them; analysis widens them to everything the body (and its nested blocks)
 * reads and writes outside itself. StepScopes (Paddle's per-iteration scopes): when a
 * while_grad of the plan reads it (training, is_test false), the executor keeps there what
 * the grad block reads of each iteration (docs/DESIGN.md, "Gradients of control flow");
 * otherwise nothing is kept. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  return ic_kfail(c, IC_ERR_INTERNAL, "while runs only under an executor (it has a sub-block)");
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                    {"Condition", 0}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                     {"StepScopes", IC_SLOT_OPTIONAL | IC_SLOT_ARRAY}};

const ic_opdef ic_op_while = {
    .name = "while",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_SUBBLOCK,
};
