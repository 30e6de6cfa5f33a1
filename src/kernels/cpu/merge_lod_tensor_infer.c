/* merge_lod_tensor_infer: merge_lod_tensor as Paddle's inference programs write it (the same
 * slots, attribute and result; see merge_lod_tensor.c). Paddle's version also empties its
 * InTrue and InFalse variables afterwards, which nothing downstream can observe in icore's
 * executors (each branch's outputs are rewritten when it runs). */
#include "kernels/cpu/lodsplit.h"

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER},
                                    {"Mask", IC_SLOT_VALUE},
                                    {"InTrue", IC_SLOT_MAYBE_EMPTY},
                                    {"InFalse", IC_SLOT_MAYBE_EMPTY}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_merge_lod_tensor_infer = {
    .name = "merge_lod_tensor_infer",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_merge_lod_attrs), .parse = ic_merge_lod_parse,
    .infer = ic_merge_lod_infer, .cpu = ic_merge_lod_run,
    .flags = IC_OP_LOD,
};
