/* recurrent_grad: the gradient of a training recurrent (fluid's StaticRNN; Paddle's
 * RecurrentGradOp). Its sub_block is the grad block Paddle's backward built for the step block
 * (its forward block). It runs once per forward step, the last step first, over what the
 * forward recurrent kept of each step in step_scopes (the step block's variables the grad
 * block reads, as the step left them). In each step back the grad block sees, under the
 * names Paddle links: outputs@GRAD[k] sliced at the step (the leading dimension dropped;
 * an output gradient nothing computed is not linked), and with has_states states[k]@GRAD =
 * the ex_states[k]@GRAD the previous step back computed (at the first one, the last forward
 * step, an outer variable of that name if one is declared, as Paddle's scope lookup finds it).
 * After the step: parameters@GRAD[j] += the block's parameters[j]@GRAD (zeros before the
 * first; one the block does not compute is left as it is), inputs@GRAD[k][t] = the block's
 * inputs[k]@GRAD (the first computed one allocates the [seq_len] + shape tensor, zeros),
 * and after the last step initial_states@GRAD[k] = its ex_states[k]@GRAD. @EMPTY@ outputs are
 * skipped. Like recurrent it has no kernel of its own (IC_OP_SUBBLOCK): the executors run it
 * (interp/ctrlexec.c, interp/uncompiled.c). `parameters` is widened by analysis to every
 * outer variable the grad block reads, inputs@GRAD to every one it writes. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  return ic_kfail(c, IC_ERR_INTERNAL, "recurrent_grad runs only under an executor (it has a "
                  "sub-block)");
}

static const ic_slotdef inputs[] = {
    {"inputs", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
    {"initial_states", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
    {"parameters", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
    {"outputs", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
    /* an output gradient nothing computed is not linked */
    {"outputs@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_MAYBE_EMPTY},
    {"step_scopes", IC_SLOT_ARRAY},
    {"step_scopes@GRAD", IC_SLOT_OPTIONAL | IC_SLOT_ARRAY | IC_SLOT_IGNORED}};
static const ic_slotdef outputs[] = {{"inputs@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                     {"initial_states@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                     {"parameters@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_recurrent_grad = {
    .name = "recurrent_grad",
    .n_inputs = 7, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_SUBBLOCK,
};
