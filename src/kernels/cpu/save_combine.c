/* save_combine: write every tensor of input X, in input order, to file_path in Paddle's
 * serialized LoDTensor format (a .pdiparams file when X lists a program's parameters
 * sorted by name); attributes overwrite (default true) and save_as_fp16. See checkpoint.c. */
#include "kernels/cpu/checkpoint.h"

static ic_status infer(ic_kctx *c) {
  (void)c;
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {{"Y", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}};

const ic_opdef ic_op_save_combine = {
    .name = "save_combine",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_ckpt_attrs), .parse = ic_ckpt_parse_save,
    .infer = infer, .cpu = ic_ckpt_save,
    .flags = IC_OP_EXTERNAL_STATE,
};
