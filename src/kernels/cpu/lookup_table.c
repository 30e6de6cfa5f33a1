/* lookup_table (v1, fluid's embedding): Out = W[Ids], one row of W [V, D] per id. Ids is int64
 * (int32 accepted) with a last dim of 1, Out drops that dim and appends D: Ids [N, 1] gives
 * Out [N, D] (paddle/phi/infermeta LookupTableInferMeta). Rows whose id equals padding_idx are
 * zero; padding_idx -1 means none and every other value is taken literally, so a negative one
 * or one past the rows matches no id (Paddle's kernels compare ids with it as it is; its
 * Python layers store a negative padding_idx already counted from V, so programs rarely hold
 * one: oracle case au_misc_common). An id outside [0, V) is
 * an error naming the op, the input and the position. Out shares Ids' LoD (ShareLoD Ids ->
 * Out). is_sparse, is_distributed, remote_prefetch and the other distributed-training
 * attributes do not change inference.
 *
 * W may be float32, float64, int8, int16, float16, bfloat16 or complex (rows are copied; Out
 * takes W's dtype; oracle case a2_small_dtypes).
 *
 * lookup_table_v2 (lookup_table_v2.c, paddle.nn.Embedding): the same with Out = Ids dims + [D]
 * (no trailing 1 required). */
#include <string.h>

#include "kernels/cpu/lookup_table.h"

enum { IN_IDS, IN_W };

/* W's dtypes: rows are only copied, so every type Paddle's CPU kernels take (float, double,
 * int8 and int16 tables of quantized programs, float16 / bfloat16 checkpoints, complex). */
#define W_DTYPES                                                                               \
  (IC_DT_FLOAT | IC_DT(IC_INT8) | IC_DT(IC_INT16) | IC_DT(IC_FP16) | IC_DT(IC_BF16) |           \
   IC_DT_COMPLEX)

ic_status ic_lookup_parse(ic_attr_reader *r, lookup_attrs *a) {
  a->padding_idx = ic_ar_int(r, "padding_idx", -1);
  return r->st;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lookup_attrs *a = attrs;
  a->v2 = false;
  return ic_lookup_parse(r, a);
}

ic_status ic_lookup_infer(ic_kctx *c) {
  const lookup_attrs *a = c->attrs;
  const ic_tensor *ids = ic_in(c, IN_IDS, 0), *w = ic_in(c, IN_W, 0);
  if (ic_kcheck_dtype(c, IN_IDS, 0, IC_DT_INT) || ic_kcheck_dtype(c, IN_W, 0, W_DTYPES)) {
    return c->err->code;
  }
  if (w->ndim != 2) return ic_kfail_in(c, IN_W, 0, "expected rank 2 [vocabulary, width]");
  int64_t d[IC_MAX_RANK];
  int n = 0;
  if (!a->v2) {
    if (ids->ndim < 1 || ids->dims[ids->ndim - 1] != 1) {
      return ic_kfail_in(c, IN_IDS, 0, "expected a last dim of 1 ([N, 1] for lookup_table)");
    }
    for (int i = 0; i < ids->ndim - 1; i++) d[n++] = ids->dims[i];
  } else {
    if (ids->ndim >= IC_MAX_RANK) {
      return ic_kfail_in(c, IN_IDS, 0, "expected rank below %d", IC_MAX_RANK);
    }
    for (int i = 0; i < ids->ndim; i++) d[n++] = ids->dims[i];
  }
  d[n++] = w->dims[1];
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, w->dtype, n, d);
  if (!ids->lod && !out->lod) return IC_OK;
  return ic_kset_lod(c, out, ids->lod ? ic_lod_clone(ids->lod) : NULL, !!ids->lod);
}

ic_status ic_lookup_run(ic_kctx *c) {
  const lookup_attrs *a = c->attrs;
  const ic_tensor *ids = ic_in(c, IN_IDS, 0), *w = ic_in(c, IN_W, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(ids), V = w->dims[0], D = w->dims[1];
  const size_t row = (size_t)D * ic_dtype_size(w->dtype);
  const int64_t pad = a->padding_idx;
  for (int64_t i = 0; i < n; i++) {
    int64_t id = ic_read_i64(ids, i);
    char *dst = (char *)out->data + (size_t)i * row;
    if (pad != -1 && id == pad) {
      memset(dst, 0, row);
      continue;
    }
    if (id < 0 || id >= V) {
      return ic_kfail_in(c, IN_IDS, 0, "has id %lld at index %lld, expected 0 to %lld (the rows "
                         "of W '%s')", (long long)id, (long long)i, (long long)V - 1,
                         ic_in_name(c, IN_W, 0));
    }
    memcpy(dst, (const char *)w->data + (size_t)id * row, row);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Ids", 0}, {"W", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_lookup_table = {
    .name = "lookup_table",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lookup_attrs), .parse = parse,
    .infer = ic_lookup_infer, .cpu = ic_lookup_run,
    .flags = IC_OP_LOD,
};
