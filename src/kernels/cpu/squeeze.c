/* squeeze: fluid 1.x's squeeze2 without XShape (the same rule and a shared buffer; see
 * squeeze2.c). */
#include "kernels/cpu/shapeops.h"

const ic_opdef ic_op_squeeze = {
    .name = "squeeze",
    .n_inputs = 1, .inputs = ic_squeeze2_inputs,
    .n_outputs = 2, .outputs = ic_shapeops_view_outputs, /* XShape absent */
    .attrs_size = sizeof(ic_axes_attrs), .parse = ic_squeeze2_parse,
    .infer = ic_squeeze2_infer, .cpu = ic_shapeops_view_run,
    .flags = IC_OP_VIEW,
};
