/* reverse: fluid's flip. Out = X reversed along each axis of `axis` (in [-rank, rank), at
 * least one; an axis named twice is reversed once, as Paddle does), any dtype
 * (paddle/fluid/operators/reverse_op.cc, paddle/phi/kernels/reverse_kernel.cc); flip's infer and
 * kernel. Paddle also reverses a LoDTensorArray's order with it; icore refuses an array here
 * (the slot takes tensors only). */
#include "kernels/cpu/shapeops.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_flip_attrs *a = attrs;
  ic_ar_ints(r, "axis", true, &a->axis, &a->n_axis);
  a->repeats = true;
  if (!r->st && !a->n_axis) return ic_ar_fail(r, "axis", "is empty, expected at least one axis");
  return r->st;
}

const ic_opdef ic_op_reverse = {
    .name = "reverse", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(ic_flip_attrs), .parse = parse, .infer = ic_flip_infer,
    .cpu = ic_flip_run,
};
