/* fractional_max_pool3d_grad: out@GRAD scattered back through the mask
 * (fractional_max_pool_grad.h); the forward's attributes are read but only checked. Slots
 * mask, out@GRAD, x -> x@GRAD as Paddle 3.3.1 writes them. */
#include "kernels/cpu/fractional_max_pool_grad.h"

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_fmp_parse(r, attrs, 3); }

static const ic_slotdef inputs[] = {{"mask", 0}, {"out@GRAD", 0}, {"x", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"x@GRAD", 0}};

const ic_opdef ic_op_fractional_max_pool3d_grad = {
    .name = "fractional_max_pool3d_grad", .n_inputs = 3, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ic_fmp_attrs), .parse = parse,
    .infer = ic_fmp_grad_infer, .cpu = ic_fmp_grad_cpu,
};
