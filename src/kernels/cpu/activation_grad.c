/* Shared parts of the unary activations' gradients (see activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

const ic_slotdef ic_actgrad_inputs_x[2] = {{"X", 0}, {"Out@GRAD", 0}};
const ic_slotdef ic_actgrad_inputs_out[2] = {{"Out", 0}, {"Out@GRAD", 0}};
const ic_slotdef ic_actgrad_inputs_x_out[3] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
const ic_slotdef ic_actgrad_inputs_x_optout[3] = {
    {"X", 0}, {"Out", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}, {"Out@GRAD", 0}};
const ic_slotdef ic_actgrad_inputs_none[1] = {{"Out@GRAD", 0}};
const ic_slotdef ic_actgrad_outputs[1] = {{"X@GRAD", 0}};

ic_status ic_actgrad_infer(ic_kctx *c) {
  size_t gi = c->def->n_inputs - 1;
  ic_status st = ic_kcheck_dtype(c, gi, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *g = ic_in(c, gi, 0);
  for (size_t s = 0; s < gi; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t) continue;
    if (t->dtype != g->dtype || !ic_dims_equal(t->ndim, t->dims, g->ndim, g->dims)) {
      char d[128];
      return ic_kfail_in(c, s, 0, "expected %s like Out@GRAD",
                         ic_tensor_describe(g, d, sizeof d));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, g->ndim, g->dims);
  return IC_OK;
}
