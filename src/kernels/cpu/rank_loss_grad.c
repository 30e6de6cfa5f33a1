/* rank_loss_grad (fluid RankLossGradKernel): with s = 1 / (1 + exp(Right - Left)),
 * Left@GRAD = Out@GRAD (s - Label) and Right@GRAD = -Out@GRAD (s - Label), either optional.
 * float32 and float64. */
#include <math.h>

#include "kernels/cpu/loss_util.h"

enum { IN_LABEL, IN_LEFT, IN_RIGHT, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const size_t s[4] = {IN_LEFT, IN_LABEL, IN_RIGHT, IN_DOUT};
  ic_status st = ic_loss_check_like(c, s, 4);
  if (st) return st;
  for (size_t k = 0; k < 2; k++) {
    const ic_tensor *x = ic_in(c, k ? IN_RIGHT : IN_LEFT, 0);
    if (ic_out(c, k, 0)) ic_tensor_set_meta(ic_out(c, k, 0), x->dtype, x->ndim, x->dims);
  }
  return IC_OK;
}

#define GRAD(T, EXP)                                                                       \
  do {                                                                                     \
    const T *lab = ic_in(c, IN_LABEL, 0)->data, *l = ic_in(c, IN_LEFT, 0)->data,           \
            *r = ic_in(c, IN_RIGHT, 0)->data, *g = ic_in(c, IN_DOUT, 0)->data;             \
    T *dl = ic_out(c, 0, 0) ? ic_out(c, 0, 0)->data : NULL;                                \
    T *dr = ic_out(c, 1, 0) ? ic_out(c, 1, 0)->data : NULL;                                \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T v = (T)1 / ((T)1 + EXP(r[i] - l[i])) - lab[i];                               \
      if (dl) dl[i] = g[i] * v;                                                            \
      if (dr) dr[i] = -g[i] * v;                                                           \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const int64_t n = ic_tensor_numel_(ic_in(c, IN_LEFT, 0));
  if (ic_in(c, IN_LEFT, 0)->dtype == IC_FP32) GRAD(float, expf);
  else GRAD(double, exp);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Label", 0}, {"Left", 0}, {"Right", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"Left@GRAD", IC_SLOT_OPTIONAL},
                                     {"Right@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_rank_loss_grad = {
    .name = "rank_loss_grad", .n_inputs = 4, .inputs = inputs, .n_outputs = 2,
    .outputs = outputs, .infer = infer, .cpu = run,
};
