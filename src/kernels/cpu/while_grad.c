/* while_grad: the gradient of a training while (Paddle's WhileGradOp). It runs its sub_block
 * (the grad block Paddle's backward pass built; its forward_block is the while's body) once
 * per forward iteration, last iteration first, over what the forward while kept of each
 * iteration in StepScopes. Like while, it has no kernel of its own (IC_OP_SUBBLOCK): the
 * executors run it (interp/ctrlexec.c, interp/uncompiled.c); docs/DESIGN.md, "Gradients of
 * control flow", gives the semantics. X and Out are read for their names only (X@GRAD[i]
 * is the gradient of X[i]); Out@GRAD is widened by analysis to every outer variable the
 * grad block reads, X@GRAD to every one it writes. An Out@GRAD of the op's own that no op
 * writes (a loop output the loss does not use) need not be set: as Paddle's WhileGradOp,
 * the executors use zeros of its declared shape. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  return ic_kfail(c, IC_ERR_INTERNAL, "while_grad runs only under an executor (it has a sub-block)");
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
                                    {"Out", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
                                    /* an output gradient nothing computed is zeros */
                                    {"Out@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_MAYBE_EMPTY},
                                    {"StepScopes", IC_SLOT_ARRAY}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_while_grad = {
    .name = "while_grad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_SUBBLOCK,
};
