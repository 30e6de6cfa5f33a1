/* target_assign (SSD's target assignment; paddle/fluid/operators/detection/target_assign_op):
 * X [rows, P, K] with one LoD level splitting its rows (ground truths) among N images,
 * MatchIndices [N, M] int32 (bipartite_match / mine_hard_examples), optional NegIndices
 * [negatives, 1] int32 with one LoD level per image. For image i and column j:
 *   id = MatchIndices[i, j] > -1:  Out[i, j, :] = X[lod[i] + id, j % P, :], OutWeight[i, j] = 1
 *   otherwise:                     Out[i, j, :] = mismatch_value,          OutWeight[i, j] = 0
 * then each negative id of image i sets Out[i, id, :] = mismatch_value, OutWeight[i, id] = 1.
 * Out [N, M, K] in X's dtype, OutWeight [N, M, 1] float32. Paddle's negative pass indexes
 * OutWeight with K's stride, which only lands on [i, id] for K = 1 (its only use, class
 * labels): icore refuses NegIndices with K > 1. Matched ids past the image's rows and
 * negative ids past M are refused. X int32, int64, float32 or float64. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_MATCH, IN_NEG };
enum { OUT_OUT, OUT_WEIGHT };

typedef struct ta_attrs {
  int64_t mismatch;
} ta_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((ta_attrs *)attrs)->mismatch = ic_ar_int(r, "mismatch_value", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *mi = ic_in(c, IN_MATCH, 0), *neg = ic_in(c, IN_NEG, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM)) return c->err->code;
  if (x->ndim != 3) return ic_kfail_in(c, IN_X, 0, "expected rank 3 [rows, P, K]");
  size_t n;
  if (!ic_kseq(c, IN_X, 0, 0, &n)) return c->err->code;
  if (mi->dtype != IC_INT32 || mi->ndim != 2 || mi->dims[0] != (int64_t)n) {
    return ic_kfail_in(c, IN_MATCH, 0, "expected int32 [%zu, columns] (one row per image of X)",
                       n);
  }
  if (neg) {
    size_t nn;
    if (neg->dtype != IC_INT32 || neg->ndim != 2 || neg->dims[1] != 1) {
      return ic_kfail_in(c, IN_NEG, 0, "expected int32 [negatives, 1]");
    }
    if (!ic_kseq(c, IN_NEG, 0, 0, &nn)) return c->err->code;
    if (nn != n) {
      return ic_kfail_in(c, IN_NEG, 0, "splits into %zu images, expected %zu (X's)", nn, n);
    }
    if (x->dims[2] != 1) {
      return ic_kfail_in(c, IN_X, 0, "has K = %lld: NegIndices is only supported with K = 1 "
                                     "(Paddle writes OutWeight at K's stride)",
                         (long long)x->dims[2]);
    }
  }
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, 3,
                     (int64_t[]){mi->dims[0], mi->dims[1], x->dims[2]});
  ic_tensor_set_meta(ic_out(c, OUT_WEIGHT, 0), IC_FP32, 3,
                     (int64_t[]){mi->dims[0], mi->dims[1], 1});
  ic_tensor_take_lod(ic_out(c, OUT_OUT, 0), NULL);
  ic_tensor_take_lod(ic_out(c, OUT_WEIGHT, 0), NULL);
  return IC_OK;
}

static void fill(void *out, ic_dtype dt, int64_t at, int64_t n, int64_t v) {
  for (int64_t k = 0; k < n; k++) {
    switch (dt) {
      case IC_FP32: ((float *)out)[at + k] = (float)v; break;
      case IC_FP64: ((double *)out)[at + k] = (double)v; break;
      case IC_INT32: ((int32_t *)out)[at + k] = (int32_t)v; break;
      default: ((int64_t *)out)[at + k] = v; break;
    }
  }
}

static ic_status run(ic_kctx *c) {
  const ta_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *mi = ic_in(c, IN_MATCH, 0), *neg = ic_in(c, IN_NEG, 0);
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *wt = ic_out(c, OUT_WEIGHT, 0);
  size_t n;
  const uint64_t *lod = ic_kseq(c, IN_X, 0, 0, &n);
  if (!lod) return c->err->code;
  const int64_t M = mi->dims[1], P = x->dims[1], K = x->dims[2];
  const size_t es = ic_dtype_size(x->dtype);
  const int32_t *ids = mi->data;
  float *w = wt->data;
  for (int64_t i = 0; i < (int64_t)n; i++) {
    const int64_t rows = (int64_t)(lod[i + 1] - lod[i]);
    for (int64_t j = 0; j < M; j++) {
      const int64_t q = i * M + j, id = ids[q];
      if (id > -1) {
        if (id >= rows) {
          return ic_kfail_in(c, IN_MATCH, 0, "holds %lld at [%lld, %lld], but image %lld of X "
                                             "has %lld rows",
                             (long long)id, (long long)i, (long long)j, (long long)i,
                             (long long)rows);
        }
        if (P < 1) return ic_kfail_in(c, IN_X, 0, "expected P >= 1");
        memcpy((char *)out->data + (size_t)(q * K) * es,
               (const char *)x->data + (size_t)((((int64_t)lod[i] + id) * P + j % P) * K) * es,
               (size_t)K * es);
        w[q] = 1.0f;
      } else {
        fill(out->data, x->dtype, q * K, K, a->mismatch);
        w[q] = 0.0f;
      }
    }
  }
  if (neg) {
    size_t nn;
    const uint64_t *nl = ic_kseq(c, IN_NEG, 0, 0, &nn);
    if (!nl) return c->err->code;
    const int32_t *ni = neg->data;
    for (int64_t i = 0; i < (int64_t)n; i++) {
      for (uint64_t j = nl[i]; j < nl[i + 1]; j++) {
        const int64_t id = ni[j];
        if (id < 0 || id >= M) {
          return ic_kfail_in(c, IN_NEG, 0, "holds %lld at row %llu, expected ids in [0, %lld)",
                             (long long)id, (unsigned long long)j, (long long)M);
        }
        fill(out->data, x->dtype, (i * M + id) * K, K, a->mismatch);
        w[i * M + id] = 1.0f;
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"MatchIndices", 0}, {"NegIndices", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"OutWeight", 0}};

const ic_opdef ic_op_target_assign = {
    .name = "target_assign",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ta_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
