/* nce_grad (fluid NCEGradKernel): from the forward's SampleLabels s and SampleLogits o
 * ([N, S], S = true classes T + num_neg_samples), per sample (i, j), in Input's precision,
 *   g = SampleWeight[i] * (j < T ? (b / (o + b)) (o - 1) : o (1 - o) / (o + b)) * Cost@GRAD[i]
 * with b = P(s) num_neg_samples (a float; nce.h), then Bias@GRAD[s] += g,
 * Weight@GRAD[s] += g Input[i] and Input@GRAD[i] += g Weight[s] in sample order. With
 * is_sparse Paddle's Weight@GRAD is a SelectedRows of the sampled rows; icore writes the same
 * values dense (rows no sample names are zero). Every output is optional. No draws: the
 * samples come from SampleLabels. float32 and float64. */
#include <string.h>

#include "kernels/cpu/nce.h"

enum {
  IN_INPUT, IN_LABEL, IN_WEIGHT, IN_BIAS, IN_SW, IN_PROBS, IN_ALIAS, IN_APROBS, IN_SLOGITS,
  IN_SLABELS, IN_DCOST
};
enum { OUT_DINPUT, OUT_DWEIGHT, OUT_DBIAS };

static const nce_slots k_slots = {IN_INPUT, IN_LABEL, IN_WEIGHT, IN_BIAS,
                                  IN_SW,    IN_PROBS, IN_ALIAS,  IN_APROBS};

static ic_status infer(ic_kctx *c) {
  const nce_attrs *a = c->attrs;
  ic_status st = nce_check(c, a, &k_slots);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *lab = ic_in(c, IN_LABEL, 0),
                  *w = ic_in(c, IN_WEIGHT, 0), *b = ic_in(c, IN_BIAS, 0),
                  *sl = ic_in(c, IN_SLABELS, 0), *so = ic_in(c, IN_SLOGITS, 0),
                  *g = ic_in(c, IN_DCOST, 0);
  if ((st = ic_kcheck_dtype(c, IN_SLABELS, 0, IC_DT(IC_INT64)))) return st;
  if (sl->ndim != 2 || sl->dims[0] != x->dims[0] || sl->dims[1] < lab->dims[1]) {
    return ic_kfail_in(c, IN_SLABELS, 0, "expected [%lld, samples] with at least %lld samples",
                       (long long)x->dims[0], (long long)lab->dims[1]);
  }
  if (so->dtype != x->dtype || !ic_dims_equal(so->ndim, so->dims, sl->ndim, sl->dims)) {
    return ic_kfail_in(c, IN_SLOGITS, 0, "expected %s with SampleLabels' dims",
                       ic_dtype_name(x->dtype));
  }
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != x->dims[0]) {
    return ic_kfail_in(c, IN_DCOST, 0, "expected %s with %lld elements (one per row)",
                       ic_dtype_name(x->dtype), (long long)x->dims[0]);
  }
  if (ic_out(c, OUT_DINPUT, 0)) ic_tensor_set_meta(ic_out(c, OUT_DINPUT, 0), x->dtype, 2, x->dims);
  if (ic_out(c, OUT_DWEIGHT, 0)) {
    ic_tensor_set_meta(ic_out(c, OUT_DWEIGHT, 0), w->dtype, w->ndim, w->dims);
  }
  if (ic_out(c, OUT_DBIAS, 0)) {
    if (!b) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "nce_grad: Bias@GRAD '%s' is asked for without a Bias",
                      ic_out_name(c, OUT_DBIAS, 0));
    }
    ic_tensor_set_meta(ic_out(c, OUT_DBIAS, 0), b->dtype, b->ndim, b->dims);
  }
  return IC_OK;
}

#define BACKWARD(T)                                                                        \
  do {                                                                                     \
    const T *xp = x->data, *wp = ic_in(c, IN_WEIGHT, 0)->data,                             \
            *op = ic_in(c, IN_SLOGITS, 0)->data, *gp = ic_in(c, IN_DCOST, 0)->data;        \
    const T *swp = ic_in(c, IN_SW, 0) ? ic_in(c, IN_SW, 0)->data : NULL;                   \
    T *dx = ic_out(c, OUT_DINPUT, 0) ? ic_out(c, OUT_DINPUT, 0)->data : NULL;              \
    T *dw = ic_out(c, OUT_DWEIGHT, 0) ? ic_out(c, OUT_DWEIGHT, 0)->data : NULL;            \
    T *db = ic_out(c, OUT_DBIAS, 0) ? ic_out(c, OUT_DBIAS, 0)->data : NULL;                \
    if (dx) memset(dx, 0, sizeof(T) * (size_t)(N * D));                                   \
    if (dw) memset(dw, 0, sizeof(T) * (size_t)(C * D));                                   \
    if (db) memset(db, 0, sizeof(T) * (size_t)C);                                         \
    for (int64_t k = 0; k < N * S; k++) {                                                  \
      const int64_t i = k / S, j = k % S, s = sl[k];                                       \
      const float b = nce_prob(a, probs, s) * (float)a->num_neg_samples;                   \
      const T o = op[k], w = swp ? swp[i] : (T)1;                                          \
      T g = j < Tn ? w * (b / (o + b)) * (o - 1) : w * (o * (1 - o) / (o + b));            \
      g *= gp[i];                                                                          \
      if (db) db[s] += g;                                                                  \
      if (dw)                                                                              \
        for (int64_t d = 0; d < D; d++) dw[s * D + d] += xp[i * D + d] * g;                \
      if (dx)                                                                              \
        for (int64_t d = 0; d < D; d++) dx[i * D + d] += wp[s * D + d] * g;                \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const nce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *st_ = ic_in(c, IN_SLABELS, 0);
  const int64_t N = x->dims[0], D = x->dims[1], S = st_->dims[1], C = a->num_total_classes,
                Tn = ic_in(c, IN_LABEL, 0)->dims[1];
  const int64_t *sl = st_->data;
  const float *probs = a->sampler == 2 ? ic_in(c, IN_PROBS, 0)->data : NULL;
  for (int64_t k = 0; k < N * S; k++) {
    if (sl[k] < 0 || sl[k] >= C) {
      return ic_kfail_in(c, IN_SLABELS, 0, "holds %lld at [%lld, %lld], expected a class in [0, %lld)",
                         (long long)sl[k], (long long)(k / S), (long long)(k % S), (long long)C);
    }
  }
  if (x->dtype == IC_FP32) BACKWARD(float);
  else BACKWARD(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Input", 0},
    {"Label", 0},
    {"Weight", 0},
    {"Bias", IC_SLOT_OPTIONAL},
    {"SampleWeight", IC_SLOT_OPTIONAL},
    {"CustomDistProbs", IC_SLOT_OPTIONAL},
    {"CustomDistAlias", IC_SLOT_OPTIONAL},
    {"CustomDistAliasProbs", IC_SLOT_OPTIONAL},
    {"SampleLogits", 0},
    {"SampleLabels", 0},
    {"Cost@GRAD", 0},
};
static const ic_slotdef outputs[] = {{"Input@GRAD", IC_SLOT_OPTIONAL},
                                     {"Weight@GRAD", IC_SLOT_OPTIONAL},
                                     {"Bias@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_nce_grad = {
    .name = "nce_grad",
    .n_inputs = 11, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(nce_attrs), .parse = nce_parse,
    .infer = infer, .cpu = run,
};
