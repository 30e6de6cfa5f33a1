/* hinge_loss_grad (phi HingeLossGradKernel): with a = 2 Labels - 1,
 * Logits@GRAD = Loss@GRAD * (Logits a < 1) * -a element by element. float32 and float64. */
#include "kernels/cpu/loss_util.h"

static ic_status infer(ic_kctx *c) {
  const size_t s[3] = {0, 1, 2};
  ic_status st = ic_loss_check_like(c, s, 3);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_out(c, 0, 0)) ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define GRAD(T)                                                                            \
  do {                                                                                     \
    const T *x = ic_in(c, 0, 0)->data, *y = ic_in(c, 1, 0)->data, *g = ic_in(c, 2, 0)->data; \
    T *o = ic_out(c, 0, 0)->data;                                                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T a = (T)2 * y[i] - (T)1;                                                      \
      o[i] = g[i] * (x[i] * a < (T)1 ? (T)1 : (T)0) * -a;                                  \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  if (!ic_out(c, 0, 0)) return IC_OK;
  const int64_t n = ic_tensor_numel_(ic_in(c, 0, 0));
  if (ic_in(c, 0, 0)->dtype == IC_FP32) GRAD(float);
  else GRAD(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Logits", 0}, {"Labels", 0}, {"Loss@GRAD", 0}};
static const ic_slotdef outputs[] = {{"Logits@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_hinge_loss_grad = {
    .name = "hinge_loss_grad", .n_inputs = 3, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
