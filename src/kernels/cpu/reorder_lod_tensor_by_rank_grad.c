/* reorder_lod_tensor_by_rank_grad: the gradient of reorder_lod_tensor_by_rank (Paddle's
 * ReorderLoDTensorByRankGradOp; its grad maker emits X = Out@GRAD, RankTable -> Out =
 * X@GRAD). The forward put sequence items[k].index of X at position k; this puts sequence k
 * of its X (the reordered gradient, split by its own first LoD level, or its rows without
 * LoD) back at position items[k].index, with everything it spans: rows and the lengths of
 * every LoD level under it, which make Out's LoD (the forward X's). */
#include "kernels/cpu/rank_table.h"

/* order[pos]: the sequence of X that goes to position pos. */
static ic_status check(ic_kctx *c, ic_rank_table *rt, size_t **order) {
  *order = NULL;
  ic_status st = ic_rank_table_read(c, 1, rt);
  if (!st) st = ic_check_lod_input(c, 0, 0, true);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  const size_t nseq = x->lod ? x->lod->lens[0] - 1 : (size_t)x->dims[0];
  size_t *o = malloc((nseq + 1) * sizeof *o);
  if (!o) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t k = 0; k <= nseq; k++) o[k] = SIZE_MAX;
  bool ok = rt->n == nseq;
  for (size_t k = 0; ok && k < rt->n; k++) {
    const int64_t idx = rt->items[2 * k];
    ok = (size_t)idx < nseq && o[idx] == SIZE_MAX;
    if (ok) o[idx] = k;
  }
  if (!ok) {
    free(o);
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "RankTable '%s' has %zu items, expected a permutation of the %zu sequences "
                    "of input X '%s' (the gradient of the reordered tensor)",
                    ic_in_name(c, 1, 0), rt->n, nseq, ic_in_name(c, 0, 0));
  }
  *order = o;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_rank_table rt;
  size_t *order;
  ic_status st = check(c, &rt, &order);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  ic_tensor_set_meta(o, x->dtype, x->ndim, x->dims);
  if (!x->lod) {
    free(order);
    return ic_kset_lod(c, o, NULL, false);
  }
  const size_t levels = x->lod->n_levels;
  ic_lod_builder b;
  ic_lodb_init(&b, levels);
  for (size_t pos = 0; pos < rt.n; pos++) {
    size_t start = order[pos], end = start + 1;
    for (size_t l = 0; l < levels; l++) {
      for (size_t q = start; q < end; q++) {
        ic_lodb_push(&b, l, x->lod->offsets[l][q + 1] - x->lod->offsets[l][q]);
      }
      const size_t s2 = x->lod->offsets[l][start], e2 = x->lod->offsets[l][end];
      start = s2;
      end = e2;
    }
  }
  free(order);
  bool oom;
  ic_lod *lod = ic_lodb_finish(&b, &oom);
  return ic_kset_lod(c, o, lod, true);
}

static ic_status run(ic_kctx *c) {
  ic_rank_table rt;
  size_t *order;
  ic_status st = check(c, &rt, &order);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  const size_t row = ic_row_bytes(x);
  char *dst = ic_out(c, 0, 0)->data;
  for (size_t pos = 0; pos < rt.n; pos++) {
    uint64_t r0, r1;
    ic_sub_lod(x->lod, order[pos], order[pos] + 1, 0, NULL, &r0, &r1);
    if (r1 > r0) memcpy(dst, (const char *)x->data + r0 * row, (r1 - r0) * row);
    dst += (r1 - r0) * row;
  }
  free(order);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"RankTable", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_reorder_lod_tensor_by_rank_grad = {
    .name = "reorder_lod_tensor_by_rank_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
