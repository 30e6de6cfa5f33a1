/* load: read one tensor (the first record) of file_path into output Out, in Paddle's
 * serialized LoDTensor format, with dtype, dims and LoD as the file holds them; attribute
 * load_as_fp16. See checkpoint.c. */
#include "kernels/cpu/checkpoint.h"

static ic_status infer(ic_kctx *c) {
  (void)c; /* the file says the dtype and dims (the output is IC_SLOT_DYNAMIC) */
  return IC_OK;
}

static ic_status run(ic_kctx *c) { return ic_ckpt_load(c, false); }

static const ic_slotdef inputs[] = {{"X", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_load = {
    .name = "load",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_ckpt_attrs), .parse = ic_ckpt_parse_load,
    .infer = infer, .cpu = run,
    .flags = IC_OP_EXTERNAL_STATE | IC_OP_LOD,
};
