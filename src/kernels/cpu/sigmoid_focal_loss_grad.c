/* sigmoid_focal_loss_grad: X@GRAD of sigmoid_focal_loss (see sigmoid_focal_loss.c), Out@GRAD
 * times the loss's derivative with respect to each logit:
 *   positive: -alpha / fg * (1 - p)^gamma * (1 - p - gamma p log(max(p, FLT_MIN)))
 *   negative: -(1 - alpha) / fg * p^gamma * (gamma (1 - p) log(1 - p) - p)
 * (paddle/fluid/operators/detection/sigmoid_focal_loss_op.h). */
#include "kernels/cpu/sigmoid_focal_loss.h"

static const ic_slotdef k_inputs[4] = {{"X", 0}, {"Label", 0}, {"FgNum", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_sfl_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *dout = ic_in(c, 3, 0);
  if (dout->dtype != x->dtype || !ic_dims_equal(dout->ndim, dout->dims, x->ndim, x->dims)) {
    return ic_kfail_in(c, 3, 0, "expected the dtype and dims of X '%s'", ic_in_name(c, 0, 0));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  return ic_sfl_run(c, ic_in(c, 3, 0), ic_out(c, 0, 0));
}

const ic_opdef ic_op_sigmoid_focal_loss_grad = {
    .name = "sigmoid_focal_loss_grad", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(ic_sfl_attrs), .parse = ic_sfl_parse,
    .infer = infer, .cpu = run,
};
