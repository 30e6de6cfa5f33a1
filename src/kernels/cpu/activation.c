/* Shared parts of the unary activations (see activation.h). */
#include "kernels/cpu/activation.h"

const ic_slotdef ic_activation_inputs[1] = {{"X", 0}};
const ic_slotdef ic_activation_outputs[1] = {{"Out", 0}};

static ic_status infer_mask(ic_kctx *c, uint64_t mask) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, mask);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_activation_infer(ic_kctx *c) { return infer_mask(c, IC_DT_FLOAT); }
ic_status ic_activation_infer_num(ic_kctx *c) { return infer_mask(c, IC_DT_NUM); }
