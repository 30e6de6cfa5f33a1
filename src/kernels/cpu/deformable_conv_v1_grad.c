/* deformable_conv_v1_grad: the gradients of deformable_conv_v1 (DCNv1, no mask): Input,
 * Offset, Filter, Output@GRAD in; Input@GRAD, Offset@GRAD, Filter@GRAD out (each optional);
 * deformable_conv_v1's attributes, im2col_step included. See deform_conv_grad.c. */
#include "kernels/cpu/deform_conv.h"

enum { IN_DOUT = 3 };

static const ic_slotdef inputs[] = {
    {"Input", 0}, {"Offset", 0}, {"Filter", 0}, {"Output@GRAD", 0},
};
static const ic_slotdef outputs[] = {
    {"Input@GRAD", IC_SLOT_OPTIONAL},
    {"Offset@GRAD", IC_SLOT_OPTIONAL},
    {"Filter@GRAD", IC_SLOT_OPTIONAL},
};

static ic_status infer(ic_kctx *c) { return ic_dcn_grad_infer(c, IC_DCN_NO_MASK, IN_DOUT); }
static ic_status run(ic_kctx *c) { return ic_dcn_grad_cpu(c, IC_DCN_NO_MASK, IN_DOUT); }

const ic_opdef ic_op_deformable_conv_v1_grad = {
    .name = "deformable_conv_v1_grad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(ic_dcn_attrs), .parse = ic_dcn_parse,
    .infer = infer, .cpu = run,
};
