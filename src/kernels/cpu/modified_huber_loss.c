/* modified_huber_loss (fluid ModifiedHuberLossKernel, Paddle 2.x): IntermediateVal
 * v = X (2 Y - 1) and Out = -4 v where v < -1, (1 - v)^2 where v < 1, else 0, element by
 * element. Y is meant to hold 0 or 1; Paddle's check of it is never evaluated, so any value
 * is taken, as here. Both outputs take X's dims. float32 (Paddle's only kernel) and
 * float64. */
#include "kernels/cpu/loss_util.h"

static ic_status infer(ic_kctx *c) {
  const size_t s[2] = {0, 1};
  ic_status st = ic_loss_check_like(c, s, 2);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  for (size_t k = 0; k < 2; k++) {
    if (ic_out(c, k, 0)) ic_tensor_set_meta(ic_out(c, k, 0), x->dtype, x->ndim, x->dims);
  }
  return IC_OK;
}

#define MHUBER(T)                                                                          \
  do {                                                                                     \
    const T *x = ic_in(c, 0, 0)->data, *y = ic_in(c, 1, 0)->data;                          \
    T *iv = ic_out(c, 0, 0) ? ic_out(c, 0, 0)->data : NULL, *o = ic_out(c, 1, 0)->data;    \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T v = x[i] * ((T)2 * y[i] - (T)1);                                             \
      if (iv) iv[i] = v;                                                                   \
      o[i] = v < (T)-1 ? (T)-4 * v : v < (T)1 ? ((T)1 - v) * ((T)1 - v) : (T)0;            \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const int64_t n = ic_tensor_numel_(ic_in(c, 0, 0));
  if (ic_in(c, 0, 0)->dtype == IC_FP32) MHUBER(float);
  else MHUBER(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"IntermediateVal", IC_SLOT_OPTIONAL}, {"Out", 0}};

const ic_opdef ic_op_modified_huber_loss = {
    .name = "modified_huber_loss", .n_inputs = 2, .inputs = inputs, .n_outputs = 2,
    .outputs = outputs, .infer = infer, .cpu = run,
};
