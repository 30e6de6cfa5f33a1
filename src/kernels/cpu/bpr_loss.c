/* bpr_loss (fluid BprLossOpKernel, Paddle 2.x; Bayesian personalized ranking): X [..., C]
 * scores, Label [..., 1] int64 the positive class in [0, C); per row with positive p,
 * Y = -(sum over j != p of t(-log(1 + t(exp(x_j - x_p))))) / (C - 1), where t maps +-inf
 * to +-1e20 (Paddle's TolerableValue); the 1 is a float literal, so a float32 row stays in
 * float32. Y has X's dims with the last one 1. float32 and float64. */
#include <math.h>

#include "kernels/kernel.h"

static ic_status check(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *l = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, 1, 0, IC_DT(IC_INT64)))) return st;
  if (x->ndim < 1 || x->ndim > 8 || x->dims[x->ndim - 1] < 2) {
    return ic_kfail_in(c, 0, 0, "expected [..., classes] (rank 1 to 8) with at least 2 classes");
  }
  const int64_t rows = ic_tensor_numel_(x) / x->dims[x->ndim - 1];
  if (ic_tensor_numel_(l) != rows) {
    return ic_kfail_in(c, 1, 0, "expected %lld labels (one per row of X)", (long long)rows);
  }
  return IC_OK;
}

ic_status ic_bpr_check(ic_kctx *c) { return check(c); }

static ic_status infer(ic_kctx *c) {
  ic_status st = check(c);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[8];
  for (int k = 0; k < x->ndim && k < 8; k++) d[k] = x->dims[k];
  d[x->ndim - 1] = 1;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  return IC_OK;
}

#define TOL(T, v) ((v) == (T)INFINITY ? (T)1e20 : (v) == -(T)INFINITY ? (T)-1e20 : (v))

#define BPR(T, EXP, LOG)                                                                   \
  do {                                                                                     \
    const T *xp = ic_in(c, 0, 0)->data;                                                     \
    T *o = ic_out(c, 0, 0)->data;                                                          \
    for (int64_t i = 0; i < rows; i++) {                                                   \
      const int64_t p = lab[i];                                                            \
      T sum = 0;                                                                           \
      for (int64_t j = 0; j < C; j++) {                                                    \
        if (j == p) continue;                                                              \
        T e = EXP(xp[i * C + j] - xp[i * C + p]);                                            \
        e = TOL(T, e);                                                                     \
        T v = -LOG(1.0f + e);                                                              \
        sum += TOL(T, v);                                                                  \
      }                                                                                    \
      o[i] = -sum / (T)(C - 1);                                                            \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t C = x->dims[x->ndim - 1], rows = ic_tensor_numel_(x) / C;
  const int64_t *lab = ic_in(c, 1, 0)->data;
  for (int64_t i = 0; i < rows; i++) {
    if (lab[i] < 0 || lab[i] >= C) {
      return ic_kfail_in(c, 1, 0, "holds %lld at row %lld, expected a class in [0, %lld)",
                         (long long)lab[i], (long long)i, (long long)C);
    }
  }
  if (x->dtype == IC_FP32) BPR(float, expf, logf);
  else BPR(double, exp, log);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Label", 0}};
static const ic_slotdef outputs[] = {{"Y", 0}};

const ic_opdef ic_op_bpr_loss = {
    .name = "bpr_loss", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
