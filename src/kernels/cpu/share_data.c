/* share_data: Out = X, sharing X's buffer (Paddle's ShareDataOp, what Paddle 2.x to_static writes
 * for Tensor.detach(); the PIR translation maps pd_op.share_data_ to assign, the same thing). */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  ic_tensor_share(ic_out(c, 0, 0), ic_in(c, 0, 0));
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_SHARE}};

const ic_opdef ic_op_share_data = {
    .name = "share_data",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_VIEW,
};
