/* expand_v2_grad: X@GRAD = Out@GRAD summed over the copies expand_v2 (shape from the attribute or the inputs Shape / expand_shapes_tensor, which the gradient does not need): X's dims and Out@GRAD's
 * dims determine it (repeat.h). Inputs as Paddle 3.3.1 writes them: X (meta only), Shape,
 * expand_shapes_tensor, Out@GRAD. */
#include "kernels/cpu/repeat.h"

enum { IN_X, IN_T, IN_LIST, IN_DOUT };

static const ic_slotdef k_inputs[4] = {
    {"X", IC_SLOT_NO_BUFFER},
    {"Shape", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
    {"expand_shapes_tensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_IGNORED},
    {"Out@GRAD", 0},
};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) { return ic_repeat_grad_infer(c, IN_X, IN_DOUT); }
static ic_status run(ic_kctx *c) { return ic_repeat_grad_run(c, IN_X, IN_DOUT); }

const ic_opdef ic_op_expand_v2_grad = {
    .name = "expand_v2_grad", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
