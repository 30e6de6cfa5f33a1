/* hinge_loss (phi HingeLossKernel, Paddle 2.x): Loss = max(0, 1 - Logits (2 Labels - 1))
 * element by element, Labels 0 or 1 as Logits' dtype (not checked, as Paddle does not).
 * Loss takes Logits' dims. float32 (Paddle's only kernel) and float64. */
#include "kernels/cpu/loss_util.h"

static ic_status infer(ic_kctx *c) {
  const size_t s[2] = {0, 1};
  ic_status st = ic_loss_check_like(c, s, 2);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define HINGE(T)                                                                           \
  do {                                                                                     \
    const T *x = ic_in(c, 0, 0)->data, *y = ic_in(c, 1, 0)->data;                          \
    T *o = ic_out(c, 0, 0)->data;                                                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T v = (T)1 - x[i] * ((T)2 * y[i] - (T)1);                                      \
      o[i] = v > (T)0 ? v : (T)0;                                                          \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const int64_t n = ic_tensor_numel_(ic_in(c, 0, 0));
  if (ic_in(c, 0, 0)->dtype == IC_FP32) HINGE(float);
  else HINGE(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Logits", 0}, {"Labels", 0}};
static const ic_slotdef outputs[] = {{"Loss", 0}};

const ic_opdef ic_op_hinge_loss = {
    .name = "hinge_loss", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
