/* modified_huber_loss_grad (fluid ModifiedHuberLossGradCPUKernel): from the forward's
 * IntermediateVal v, X@GRAD = -4 (2 Y - 1) Out@GRAD where v < -1, -2 (1 - v)(2 Y - 1)
 * Out@GRAD where v < 1, else 0. X, when the program passes it, is not read. float32 and
 * float64. */
#include "kernels/cpu/loss_util.h"

enum { IN_Y, IN_IV, IN_DOUT, IN_X };

static ic_status infer(ic_kctx *c) {
  const size_t s[3] = {IN_IV, IN_Y, IN_DOUT};
  ic_status st = ic_loss_check_like(c, s, 3);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0) ? ic_in(c, IN_X, 0) : ic_in(c, IN_IV, 0);
  if (ic_out(c, 0, 0)) ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, IN_IV, 0)->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define GRAD(T)                                                                            \
  do {                                                                                     \
    const T *y = ic_in(c, IN_Y, 0)->data, *v = ic_in(c, IN_IV, 0)->data,                   \
            *g = ic_in(c, IN_DOUT, 0)->data;                                               \
    T *o = ic_out(c, 0, 0)->data;                                                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      if (v[i] < -1) o[i] = -4 * (2 * y[i] - 1) * g[i];                                    \
      else if (v[i] < 1) o[i] = -2 * (1 - v[i]) * (2 * y[i] - 1) * g[i];                   \
      else o[i] = 0;                                                                       \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  if (!ic_out(c, 0, 0)) return IC_OK;
  const int64_t n = ic_tensor_numel_(ic_in(c, IN_IV, 0));
  if (ic_in(c, IN_IV, 0)->dtype == IC_FP32) GRAD(float);
  else GRAD(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Y", 0}, {"IntermediateVal", 0}, {"Out@GRAD", 0}, {"X", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_modified_huber_loss_grad = {
    .name = "modified_huber_loss_grad", .n_inputs = 4, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
