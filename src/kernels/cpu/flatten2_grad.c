/* flatten2_grad: X@GRAD = Out@GRAD with the dims of flatten2's input, read from XShape (meta
 * only, dims [0, X's dims...]); the output shares Out@GRAD's buffer (train.h). Paddle's op
 * also lists X, which is not needed. */
#include "kernels/cpu/train.h"

static const ic_slotdef k_inputs[3] = {{"XShape", IC_SLOT_NO_BUFFER},
                                       {"Out@GRAD", 0},
                                       {"X", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}};

const ic_opdef ic_op_flatten2_grad = {
    .name = "flatten2_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = ic_xshape_grad_outputs, .infer = ic_xshape_grad_infer,
    .cpu = ic_xshape_grad_run,
};
