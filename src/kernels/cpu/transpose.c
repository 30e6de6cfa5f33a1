/* transpose: fluid's first transpose op (Paddle < 1.3 programs), transpose2 without XShape
 * (transpose2.c): Out.dims[i] = X.dims[axis[i]]. */
#include "kernels/cpu/shapeops.h"

static const ic_slotdef inputs[] = {{"X", 0}};

const ic_opdef ic_op_transpose = {
    .name = "transpose",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = ic_transpose2_outputs, /* XShape: never present in v1 */
    .attrs_size = sizeof(transpose_attrs), .parse = ic_transpose2_parse,
    .infer = ic_transpose2_infer, .cpu = ic_transpose2_run,
};
