/* deformable_conv_v1: the deformable convolution without a mask (DCNv1); see
 * deform_conv.c. */
#include "kernels/cpu/deform_conv.h"

static const ic_slotdef inputs[] = {
    {"Input", 0},
    {"Offset", 0},
    {"Filter", 0},
};
static const ic_slotdef outputs[] = {{"Output", 0}};

const ic_opdef ic_op_deformable_conv_v1 = {
    .name = "deformable_conv_v1",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_dcn_attrs), .parse = ic_dcn_parse,
    .infer = ic_dcn_infer, .cpu = ic_dcn_cpu,
};
