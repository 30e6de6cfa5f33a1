/* expand_as_v2_grad: X@GRAD = Out@GRAD summed over the copies expand_as_v2 made: X's dims and
 * Out@GRAD's dims determine it (repeat.h). Inputs X (meta only), Y (optional, not needed:
 * Out@GRAD has the target dims), Out@GRAD. */
#include "kernels/cpu/repeat.h"

enum { IN_X, IN_Y, IN_DOUT };

static const ic_slotdef k_inputs[3] = {
    {"X", IC_SLOT_NO_BUFFER}, {"Y", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) { return ic_repeat_grad_infer(c, IN_X, IN_DOUT); }
static ic_status run(ic_kctx *c) { return ic_repeat_grad_run(c, IN_X, IN_DOUT); }

const ic_opdef ic_op_expand_as_v2_grad = {
    .name = "expand_as_v2_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
