/* sigmoid_focal_loss: the focal loss of RetinaNet over per-class sigmoids, as fluid's
 * detection op computes it (paddle/fluid/operators/detection/sigmoid_focal_loss_op.h;
 * Paddle 2.6 no longer registers it, PaddleDetection's older RetinaNet/FCOS programs hold it).
 * X float [N, D] logits, Label int [N, 1] with 1..D the class of row n (column Label - 1 is
 * its positive), 0 background (every column negative), -1 ignored (no loss);
 * FgNum int [1] the number of foreground rows (taken as at least 1). With p = sigmoid(x):
 *   positive: -alpha / fg * (1 - p)^gamma * log(max(p, FLT_MIN))
 *   negative: -(1 - alpha) / fg * p^gamma * log(1 - p)   (log(1 - p) computed stably)
 * Out [N, D]. Computed in double, rounded once. The gradient is sigmoid_focal_loss_grad.c;
 * both share sfl_term (sigmoid_focal_loss.h). */
#include "kernels/cpu/sigmoid_focal_loss.h"

static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Label", 0}, {"FgNum", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_sfl_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  return ic_sfl_run(c, NULL, ic_out(c, 0, 0));
}

const ic_opdef ic_op_sigmoid_focal_loss = {
    .name = "sigmoid_focal_loss", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(ic_sfl_attrs), .parse = ic_sfl_parse,
    .infer = infer, .cpu = run,
};
