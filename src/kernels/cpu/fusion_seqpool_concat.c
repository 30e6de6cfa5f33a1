/* fusion_seqpool_concat: sequence pooling of several LoD inputs, concatenated (see
 * seqpool_concat.h), as Paddle's seqpool_concat_fuse_pass writes it. */
#include "kernels/cpu/seqpool_concat.h"

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_spc_parse(r, attrs, false); }
static ic_status run(ic_kctx *c) { return ic_spc_run(c, false); }

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fusion_seqpool_concat = {
    .name = "fusion_seqpool_concat",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_spc_attrs), .parse = parse,
    .infer = ic_spc_infer, .cpu = run,
    .flags = IC_OP_LOD,
};
