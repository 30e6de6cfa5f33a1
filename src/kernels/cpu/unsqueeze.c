/* unsqueeze: fluid 1.x's unsqueeze2 without XShape (the same rule and a shared buffer; see
 * unsqueeze2.c). */
#include "kernels/cpu/shapeops.h"

const ic_opdef ic_op_unsqueeze = {
    .name = "unsqueeze",
    .n_inputs = 3, .inputs = ic_unsqueeze2_inputs,
    .n_outputs = 2, .outputs = ic_shapeops_view_outputs, /* XShape absent */
    .attrs_size = sizeof(ic_axes_attrs), .parse = ic_unsqueeze2_parse,
    .infer = ic_unsqueeze2_infer, .cpu = ic_shapeops_view_run,
    .flags = IC_OP_VIEW,
};
