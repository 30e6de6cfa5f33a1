/* fused_embedding_seq_pool (fluid.contrib.fused_embedding_seq_pool, PaddleRec's CTR models;
 * paddle/fluid/operators/fused/fused_embedding_seq_pool_op.h): an embedding lookup and a sum
 * sequence_pool in one op. Ids [T, 1] or [T, ..., 1] int64 (the last dimension 1, as Paddle
 * checks; k the product of the dimensions after the first) with one LoD level splitting its T
 * rows into sequences; W [V, D]. Out [sequences, k * D]:
 *   Out[s, c*D : (c+1)*D] = sum over the rows j of sequence s of W[Ids[j, c]],
 * skipping ids equal to padding_idx (-1: none; Paddle's MKL kernel, the one its x86 wheels
 * run, skips them), an empty sequence giving zeros. combiner must be "sum" (Paddle's only
 * one). Sums in the table's dtype, row by row in order. float32 or float64 tables. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_W, IN_IDS };

typedef struct fesp_attrs {
  int64_t padding_idx;
} fesp_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fesp_attrs *a = attrs;
  const char *comb = ic_ar_str(r, "combiner", "sum");
  a->padding_idx = ic_ar_int(r, "padding_idx", -1);
  (void)ic_ar_bool(r, "is_sparse", false);
  (void)ic_ar_bool(r, "grad_inplace", false);
  if (r->st) return r->st;
  if (strcmp(comb, "sum") != 0) {
    return ic_ar_fail(r, "combiner", "is \"%s\", expected \"sum\" (the only one Paddle has)", comb);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *w = ic_in(c, IN_W, 0), *ids = ic_in(c, IN_IDS, 0);
  if (ic_kcheck_dtype(c, IN_W, 0, IC_DT_FLOAT)) return c->err->code;
  if (w->ndim != 2) return ic_kfail_in(c, IN_W, 0, "expected rank 2 [vocabulary, width]");
  if (ids->dtype != IC_INT64 || ids->ndim < 2 || ids->dims[ids->ndim - 1] != 1) {
    return ic_kfail_in(c, IN_IDS, 0, "expected int64 ids [rows, ..., 1] (the last dimension 1)");
  }
  size_t ns;
  if (!ic_kseq(c, IN_IDS, 0, 0, &ns)) return c->err->code;
  if (ids->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_IDS, 0, "has %zu LoD levels, expected 1", ids->lod->n_levels);
  }
  int64_t k = 1;
  for (int d = 1; d < ids->ndim; d++) k *= ids->dims[d];
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, w->dtype, 2, (int64_t[]){(int64_t)ns, k * w->dims[1]});
  ic_tensor_take_lod(out, NULL);
  return IC_OK;
}

#define DEFINE_FESP(T, SUF)                                                                   \
  static void pool_##SUF(const T *w, const int64_t *ids, const uint64_t *off, size_t ns,      \
                         int64_t k, int64_t D, int64_t pad, T *out) {                         \
    for (size_t s = 0; s < ns; s++) {                                                         \
      T *o = out + (int64_t)s * k * D;                                                        \
      for (int64_t i = 0; i < k * D; i++) o[i] = 0;                                           \
      for (uint64_t j = off[s]; j < off[s + 1]; j++) {                                        \
        for (int64_t col = 0; col < k; col++) {                                               \
          const int64_t id = ids[(int64_t)j * k + col];                                       \
          if (id == pad) continue;                                                            \
          const T *row = w + id * D;                                                          \
          for (int64_t e = 0; e < D; e++) o[col * D + e] += row[e];                           \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }
DEFINE_FESP(float, f32)
DEFINE_FESP(double, f64)

static ic_status run(ic_kctx *c) {
  const fesp_attrs *a = c->attrs;
  const ic_tensor *w = ic_in(c, IN_W, 0), *ids = ic_in(c, IN_IDS, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_IDS, 0, 0, &ns);
  if (!off) return c->err->code;
  const int64_t V = w->dims[0], D = w->dims[1], n = ic_tensor_numel_(ids);
  const int64_t k = ids->dims[0] ? n / ids->dims[0] : 1;
  const int64_t *id = ids->data;
  for (int64_t i = 0; i < n; i++) {
    if (id[i] != a->padding_idx && (id[i] < 0 || id[i] >= V)) {
      return ic_kfail_in(c, IN_IDS, 0, "holds %lld at element %lld, expected ids in [0, %lld)",
                         (long long)id[i], (long long)i, (long long)V);
    }
  }
  if (w->dtype == IC_FP64) pool_f64(w->data, id, off, ns, k, D, a->padding_idx, out->data);
  else pool_f32(w->data, id, off, ns, k, D, a->padding_idx, out->data);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"W", 0}, {"Ids", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fused_embedding_seq_pool = {
    .name = "fused_embedding_seq_pool",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fesp_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
