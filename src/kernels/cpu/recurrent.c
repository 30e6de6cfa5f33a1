/* recurrent: what fluid's StaticRNN writes. Its sub_block (the step block) runs once per time
 * step over the leading dimension of its `inputs` (all of one length), in reverse order with
 * `reverse`. In each step the block sees, under the same names, inputs[k][t] (the step's
 * slice, the leading dimension dropped), and with has_states the memories: ex_states[k] is
 * initial_states[k] at the first step, then the states[k] the previous step left. outputs[k]
 * is the step block's value of that name at the end of each step, stacked over the steps
 * ([seq_len] + its shape). `parameters` lists outer variables the block reads (analysis
 * widens it to everything the block reads outside itself, as while's X). Like while, the op
 * has no kernel of its own: both executors recognize IC_OP_SUBBLOCK and run the step block
 * (analysis/ctrlflow.c, interp/ctrlexec.c, interp/uncompiled.c). With a recurrent_grad
 * reading step_scopes (training, is_train not false) step_scopes keeps, per step, the step
 * block's variables the grad block reads, as the step left them (recurrent_grad.c);
 * otherwise the steps are dropped as they end and step_scopes holds nothing. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  return ic_kfail(c, IC_ERR_INTERNAL, "recurrent runs only under an executor (it has a sub-block)");
}

static const ic_slotdef inputs[] = {{"inputs", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                    {"initial_states", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                    {"parameters", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"outputs", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                     {"step_scopes", IC_SLOT_OPTIONAL | IC_SLOT_ARRAY}};

const ic_opdef ic_op_recurrent = {
    .name = "recurrent",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_SUBBLOCK,
};
