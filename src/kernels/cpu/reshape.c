/* reshape: fluid's first reshape op (Paddle < 1.3 programs), reshape2 without XShape: the
 * same slots X, Shape, ShapeTensor and `shape` attribute, the same rule (reshape2.c). */
#include "kernels/cpu/shapeops.h"

const ic_opdef ic_op_reshape = {
    .name = "reshape",
    .n_inputs = 3, .inputs = ic_reshape2_inputs,
    .n_outputs = 2, .outputs = ic_shapeops_view_outputs, /* XShape: never present in v1 */
    .attrs_size = sizeof(reshape_attrs), .parse = ic_reshape2_parse,
    .infer = ic_reshape2_infer, .cpu = ic_shapeops_view_run,
    .flags = IC_OP_VIEW,
};
