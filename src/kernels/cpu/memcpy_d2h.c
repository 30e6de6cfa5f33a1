/* memcpy_d2h: Out (on the host) = X (on the device). Analysis inserts it where a device value
 * meets a host op or a fetch; the executor runs it on the copy thread and waits for it, so
 * host ops after it see the data. Shares its functions with memcpy_h2d. */
#include "kernels/kernel.h"

ic_status ic_copy_infer(ic_kctx *c);
ic_status ic_copy_cpu(ic_kctx *c);
extern const ic_slotdef ic_copy_inputs[1];
extern const ic_slotdef ic_copy_outputs[1];

const ic_opdef ic_op_memcpy_d2h = {
    .name = "memcpy_d2h",
    .n_inputs = 1, .inputs = ic_copy_inputs,
    .n_outputs = 1, .outputs = ic_copy_outputs,
    .infer = ic_copy_infer, .cpu = ic_copy_cpu,
    .flags = IC_OP_COPY,
};
