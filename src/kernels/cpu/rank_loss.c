/* rank_loss (fluid RankLossKernel, Paddle 2.x; RankNet): with d = Left - Right,
 * Out = log(1 + exp(d)) - Label d element by element. Label, Left and Right have one dtype
 * and one element count; Out takes Left's dims. float32 (Paddle's only kernel) and
 * float64. */
#include <math.h>

#include "kernels/cpu/loss_util.h"

enum { IN_LABEL, IN_LEFT, IN_RIGHT };

static ic_status infer(ic_kctx *c) {
  const size_t s[3] = {IN_LEFT, IN_LABEL, IN_RIGHT};
  ic_status st = ic_loss_check_like(c, s, 3);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_LEFT, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define RANK(T, EXP, LOG)                                                                  \
  do {                                                                                     \
    const T *lab = ic_in(c, IN_LABEL, 0)->data, *l = ic_in(c, IN_LEFT, 0)->data,           \
            *r = ic_in(c, IN_RIGHT, 0)->data;                                              \
    T *o = ic_out(c, 0, 0)->data;                                                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      o[i] = LOG((T)1 + EXP(l[i] - r[i])) - lab[i] * (l[i] - r[i]);                        \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const int64_t n = ic_tensor_numel_(ic_in(c, IN_LEFT, 0));
  if (ic_in(c, IN_LEFT, 0)->dtype == IC_FP32) RANK(float, expf, logf);
  else RANK(double, exp, log);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Label", 0}, {"Left", 0}, {"Right", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_rank_loss = {
    .name = "rank_loss", .n_inputs = 3, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
