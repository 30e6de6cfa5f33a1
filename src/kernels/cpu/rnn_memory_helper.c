/* rnn_memory_helper: Out = X, sharing X's buffer and LoD (Paddle's RNNMemoryHelperOp, which
 * fluid's StaticRNN puts in its step block for each step_output and each memory's new value:
 * the variable the recurrent op stacks or carries to the next step). Its `dtype` attribute
 * only records X's type. assign's kernel under this name, like share_data. */
#include "kernels/cpu/assign.h"

const ic_opdef ic_op_rnn_memory_helper = {
    .name = "rnn_memory_helper",
    .n_inputs = 1, .inputs = ic_assign_inputs,
    .n_outputs = 1, .outputs = ic_assign_outputs,
    .infer = ic_assign_infer, .cpu = ic_assign_run,
    .flags = IC_OP_VIEW,
};
