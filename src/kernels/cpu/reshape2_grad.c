/* reshape2_grad: X@GRAD = Out@GRAD with the dims of the forward input, read from XShape
 * (dims [0, x dims...], meta only; phi ReshapeGradKernel). The same values in the same order:
 * the output shares Out@GRAD's buffer. */
#include "kernels/cpu/shapeops.h"
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *xs = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  if (xs->ndim < 1 || xs->dims[0] != 0) {
    return ic_kfail_in(c, 0, 0, "expected the XShape of reshape2: dims [0, ...]");
  }
  if (ic_numel(xs->ndim - 1, xs->dims + 1) != ic_tensor_numel_(g)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected %lld elements, those of X %s",
                       (long long)ic_numel(xs->ndim - 1, xs->dims + 1),
                       ic_dims_str(xs->ndim - 1, xs->dims + 1, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, xs->ndim - 1, xs->dims + 1);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  ic_shapeops_share(c, 0, 1);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"XShape", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_SHARE}};

const ic_opdef ic_op_reshape2_grad = {
    .name = "reshape2_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
