/* share_data: Out = X, sharing X's buffer (Paddle's ShareDataOp, what Paddle 2.x to_static writes
 * for Tensor.detach(); the PIR translation maps pd_op.share_data_ to assign, the same thing):
 * assign's kernel under this name. */
#include "kernels/cpu/assign.h"

const ic_opdef ic_op_share_data = {
    .name = "share_data",
    .n_inputs = 1, .inputs = ic_assign_inputs,
    .n_outputs = 1, .outputs = ic_assign_outputs,
    .infer = ic_assign_infer, .cpu = ic_assign_run,
    .flags = IC_OP_VIEW,
};
