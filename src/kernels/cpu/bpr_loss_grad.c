/* bpr_loss_grad (fluid BprLossGradientOpKernel): per row with positive p and every j != p,
 * g = -Y@GRAD / ((C - 1)(1 + t(exp(x_p - x_j)))) (t as in bpr_loss.c; the 1 a float
 * literal); X@GRAD[p] += g and X@GRAD[j] -= g, in j order. float32 and float64. */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

ic_status ic_bpr_check(ic_kctx *c);

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_bpr_check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 2, 0);
  const int64_t rows = ic_tensor_numel_(x) / x->dims[x->ndim - 1];
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != rows) {
    return ic_kfail_in(c, 2, 0, "expected %s with %lld elements (one per row of X)",
                       ic_dtype_name(x->dtype), (long long)rows);
  }
  if (ic_out(c, 0, 0)) ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define TOL(T, v) ((v) == (T)INFINITY ? (T)1e20 : (v) == -(T)INFINITY ? (T)-1e20 : (v))

#define GRAD(T, EXP)                                                                       \
  do {                                                                                     \
    const T *xp = ic_in(c, 0, 0)->data, *dy = ic_in(c, 2, 0)->data;                         \
    T *dx = ic_out(c, 0, 0)->data;                                                         \
    memset(dx, 0, sizeof(T) * (size_t)(rows * C));                                        \
    for (int64_t i = 0; i < rows; i++) {                                                   \
      const int64_t p = lab[i];                                                            \
      for (int64_t j = 0; j < C; j++) {                                                    \
        if (j == p) continue;                                                              \
        T e = EXP(xp[i * C + p] - xp[i * C + j]);                                            \
        e = TOL(T, e);                                                                     \
        const T g = -dy[i] / ((T)(C - 1) * (1.0f + e));                                    \
        dx[i * C + p] += g;                                                                \
        dx[i * C + j] -= g;                                                                \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  if (!ic_out(c, 0, 0)) return IC_OK;
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t C = x->dims[x->ndim - 1], rows = ic_tensor_numel_(x) / C;
  const int64_t *lab = ic_in(c, 1, 0)->data;
  for (int64_t i = 0; i < rows; i++) {
    if (lab[i] < 0 || lab[i] >= C) {
      return ic_kfail_in(c, 1, 0, "holds %lld at row %lld, expected a class in [0, %lld)",
                         (long long)lab[i], (long long)i, (long long)C);
    }
  }
  if (x->dtype == IC_FP32) GRAD(float, expf);
  else GRAD(double, exp);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Label", 0}, {"Y@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_bpr_loss_grad = {
    .name = "bpr_loss_grad", .n_inputs = 3, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
