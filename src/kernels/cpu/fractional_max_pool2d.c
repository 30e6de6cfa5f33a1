/* fractional_max_pool2d: max pooling over 2-D windows of fractional, pseudo-random
 * stride (fractional_max_pool.h says how, as Paddle computes them); attributes output_size,
 * kernel_size (0s: disjoint windows), random_u (0: icore draws u itself) and return_mask.
 * Legacy slots x -> out, mask (int32; written whether or not return_mask asks for it). */
#include "kernels/cpu/fractional_max_pool.h"

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_fmp_parse(r, attrs, 2); }

static const ic_slotdef inputs[] = {{"x", 0}};
static const ic_slotdef outputs[] = {{"out", 0}, {"mask", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_fractional_max_pool2d = {
    .name = "fractional_max_pool2d", .n_inputs = 1, .inputs = inputs, .n_outputs = 2,
    .outputs = outputs, .flags = IC_OP_RANDOM, .attrs_size = sizeof(ic_fmp_attrs),
    .parse = parse, .infer = ic_fmp_infer, .cpu = ic_fmp_cpu,
};
