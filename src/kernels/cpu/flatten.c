/* flatten: fluid 1.x's flatten, flatten2 without XShape: Out = X as a matrix
 * [prod(dims[:axis]), prod(dims[axis:])] (the same bytes, shared), `axis` (default 1) in
 * [0, rank] (paddle/fluid/operators/flatten_op.h, FlattenOp; no Paddle wheel registers it
 * any more, so it is unit-tested only). */
#include "kernels/cpu/shapeops.h"

static const ic_slotdef k_inputs[] = {{"X", 0}};

const ic_opdef ic_op_flatten = {
    .name = "flatten", .n_inputs = 1, .inputs = k_inputs,
    .n_outputs = 2, .outputs = ic_shapeops_view_outputs, /* XShape: never present */
    .attrs_size = sizeof(flatten2_attrs), .parse = ic_flatten2_parse,
    .infer = ic_flatten2_infer, .cpu = ic_shapeops_view_run,
    .flags = IC_OP_VIEW,
};
