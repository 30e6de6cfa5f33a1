/* assign: Out = X. Out shares X's buffer: kernels never write into their inputs, so a
 * copy would only cost time and memory. Sharing passes X's layout on, so X takes blocked
 * tensors (whole channel blocks): the layout pass (analysis/layout.c) lets one arrive only
 * where every reader of Out takes them too, as for the arithmetic elementwise ops
 * (SVTR's neck keeps a pooled map through an assign for a convolution and a concat). */
#include "kernels/cpu/assign.h"

ic_status ic_assign_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_assign_run(ic_kctx *c) {
  ic_tensor_share(ic_out(c, 0, 0), ic_in(c, 0, 0));
  return IC_OK;
}

const ic_slotdef ic_assign_inputs[1] = {{"X", 0}};
const ic_slotdef ic_assign_outputs[1] = {{"Out", IC_SLOT_SHARE}};
static const ic_slotdef assign_inputs[1] = {{"X", IC_SLOT_BLOCKED}};

const ic_opdef ic_op_assign = {
    .name = "assign",
    .n_inputs = 1, .inputs = assign_inputs,
    .n_outputs = 1, .outputs = ic_assign_outputs,
    .infer = ic_assign_infer, .cpu = ic_assign_run,
    .flags = IC_OP_VIEW,
};
