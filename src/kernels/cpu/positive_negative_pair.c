/* positive_negative_pair (fluid PositiveNegativePairKernel, Paddle 2.x): ranking pair counts.
 * Score [N, W] (float32 or float64; column `column`, default -1, in [-W, W), ranks), Label
 * [N, 1] Score's dtype, QueryID [N, 1] int64, Weight [N, 1] (optional: 1 each), and the
 * optional AccumulatePositivePair / AccumulateNegativePair / AccumulateNeutralPair ([1] each,
 * used only when all three are given) as starting counts. For every two samples of one query
 * (in batch order) whose labels differ, w = (weight_a + weight_b) * 0.5 goes to PositivePair
 * when (score_a - score_b)(label_a - label_b) > 0 and to NegativePair otherwise; equal scores
 * also add w to NeutralPair (and, as Paddle's, to NegativePair). Outputs [1] in Score's
 * dtype. Queries are taken in order of first appearance; Paddle takes them in its hash map's
 * order, so with weights that are not exact in the dtype the sums may differ by rounding. */
#include <stdbool.h>

#include "kernels/kernel.h"

typedef struct pnp_attrs {
  int64_t column;
} pnp_attrs;

enum { IN_SCORE, IN_LABEL, IN_QUERY, IN_ACC_POS, IN_ACC_NEG, IN_ACC_NEU, IN_WEIGHT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pnp_attrs *a = attrs;
  a->column = ic_ar_int(r, "column", -1);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const pnp_attrs *a = c->attrs;
  const ic_tensor *s = ic_in(c, IN_SCORE, 0);
  ic_status st = ic_kcheck_dtype(c, IN_SCORE, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, IN_QUERY, 0, IC_DT(IC_INT64)))) return st;
  if (s->ndim != 2) return ic_kfail_in(c, IN_SCORE, 0, "expected rank 2 ([batch, scores])");
  if (a->column < -s->dims[1] || a->column >= s->dims[1]) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "positive_negative_pair: column is %lld, expected in [-%lld, %lld)",
                    (long long)a->column, (long long)s->dims[1], (long long)s->dims[1]);
  }
  const size_t per_row[3] = {IN_LABEL, IN_QUERY, IN_WEIGHT};
  for (int k = 0; k < 3; k++) {
    const ic_tensor *t = ic_in(c, per_row[k], 0);
    if (!t) continue;
    if ((per_row[k] != IN_QUERY && t->dtype != s->dtype) || ic_tensor_numel_(t) != s->dims[0]) {
      return ic_kfail_in(c, per_row[k], 0, "expected %s with %lld elements (one per row of Score)",
                         per_row[k] == IN_QUERY ? "int64" : ic_dtype_name(s->dtype),
                         (long long)s->dims[0]);
    }
  }
  for (size_t k = IN_ACC_POS; k <= IN_ACC_NEU; k++) {
    const ic_tensor *t = ic_in(c, k, 0);
    if (t && (t->dtype != s->dtype || ic_tensor_numel_(t) < 1)) {
      return ic_kfail_in(c, k, 0, "expected a %s count", ic_dtype_name(s->dtype));
    }
  }
  const int64_t one = 1;
  for (size_t k = 0; k < 3; k++) {
    if (ic_out(c, k, 0)) ic_tensor_set_meta(ic_out(c, k, 0), s->dtype, 1, &one);
  }
  return IC_OK;
}

#define PAIRS(T)                                                                           \
  do {                                                                                     \
    const T *sc = s->data, *lb = ic_in(c, IN_LABEL, 0)->data;                              \
    const T *wt = ic_in(c, IN_WEIGHT, 0) ? ic_in(c, IN_WEIGHT, 0)->data : NULL;            \
    T pos = 0, neg = 0, neu = 0;                                                           \
    if (ic_in(c, IN_ACC_POS, 0) && ic_in(c, IN_ACC_NEG, 0) && ic_in(c, IN_ACC_NEU, 0)) {   \
      pos = *(const T *)ic_in(c, IN_ACC_POS, 0)->data;                                     \
      neg = *(const T *)ic_in(c, IN_ACC_NEG, 0)->data;                                     \
      neu = *(const T *)ic_in(c, IN_ACC_NEU, 0)->data;                                     \
    }                                                                                      \
    for (int64_t q = 0; q < N; q++) {                                                      \
      bool first = true;                                                                   \
      for (int64_t p = 0; p < q && first; p++) first = qid[p] != qid[q];                   \
      if (!first) continue;                                                                \
      for (int64_t i = q; i < N; i++) {                                                    \
        if (qid[i] != qid[q]) continue;                                                    \
        for (int64_t j = i + 1; j < N; j++) {                                              \
          if (qid[j] != qid[q] || lb[i] == lb[j]) continue;                                \
          const T w = ((wt ? wt[i] : (T)1.0) + (wt ? wt[j] : (T)1.0)) * (T)0.5;            \
          const T si = sc[i * W + col], sj = sc[j * W + col];                              \
          if (si == sj) neu += w;                                                          \
          if ((si - sj) * (lb[i] - lb[j]) > 0.0) pos += w;                                 \
          else neg += w;                                                                   \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
    if (ic_out(c, 0, 0)) *(T *)ic_out(c, 0, 0)->data = pos;                                \
    if (ic_out(c, 1, 0)) *(T *)ic_out(c, 1, 0)->data = neg;                                \
    if (ic_out(c, 2, 0)) *(T *)ic_out(c, 2, 0)->data = neu;                                \
  } while (0)

static ic_status run(ic_kctx *c) {
  const pnp_attrs *a = c->attrs;
  const ic_tensor *s = ic_in(c, IN_SCORE, 0);
  const int64_t N = s->dims[0], W = s->dims[1], col = a->column < 0 ? a->column + W : a->column;
  const int64_t *qid = ic_in(c, IN_QUERY, 0)->data;
  if (s->dtype == IC_FP32) PAIRS(float);
  else PAIRS(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Score", 0},
                                    {"Label", 0},
                                    {"QueryID", 0},
                                    {"AccumulatePositivePair", IC_SLOT_OPTIONAL},
                                    {"AccumulateNegativePair", IC_SLOT_OPTIONAL},
                                    {"AccumulateNeutralPair", IC_SLOT_OPTIONAL},
                                    {"Weight", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"PositivePair", IC_SLOT_OPTIONAL},
                                     {"NegativePair", IC_SLOT_OPTIONAL},
                                     {"NeutralPair", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_positive_negative_pair = {
    .name = "positive_negative_pair",
    .n_inputs = 7, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(pnp_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
