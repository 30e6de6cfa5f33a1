/* reorder_lod_tensor_by_rank: Out = the sequences of X's first LoD level in the order of
 * RankTable's items (each with everything it spans: rows, and the lengths of every level
 * under it as Out's LoD); without LoD, X's rows are the sequences (fluid's DynamicRNN
 * reorders its initial memories so). The table may come from another tensor; it must name
 * each of X's sequences exactly once (Paddle leaves rows it does not name unset). */
#include "kernels/cpu/rank_table.h"

static ic_status check(ic_kctx *c, ic_rank_table *rt) {
  ic_status st = ic_rank_table_read(c, 1, rt);
  if (!st) st = ic_check_lod_input(c, 0, 0, true);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  size_t nseq = x->lod ? x->lod->lens[0] - 1 : (size_t)x->dims[0];
  bool ok = rt->n == nseq;
  uint8_t *seen = calloc(nseq + 1, 1);
  if (!seen) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t k = 0; ok && k < rt->n; k++) {
    int64_t idx = rt->items[2 * k];
    ok = (size_t)idx < nseq && !seen[idx];
    if (ok) seen[idx] = 1;
  }
  free(seen);
  if (!ok) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "RankTable '%s' has %zu items, expected a permutation of the %zu sequences of input X '%s'",
                    ic_in_name(c, 1, 0), rt->n, nseq, ic_in_name(c, 0, 0));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_rank_table rt;
  ic_status st = check(c, &rt);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  ic_tensor_set_meta(o, x->dtype, x->ndim, x->dims);
  if (!x->lod) return ic_kset_lod(c, o, NULL, false);
  size_t levels = x->lod->n_levels;
  ic_lod_builder b;
  ic_lodb_init(&b, levels);
  for (size_t k = 0; k < rt.n; k++) {
    size_t idx = (size_t)rt.items[2 * k];
    uint64_t r0, r1;
    /* one sequence's sub-LoD: its length at level 0, the entries under it below */
    size_t start = idx, end = idx + 1;
    for (size_t l = 0; l < levels; l++) {
      for (size_t q = start; q < end; q++) ic_lodb_push(&b, l, x->lod->offsets[l][q + 1] - x->lod->offsets[l][q]);
      r0 = x->lod->offsets[l][start];
      r1 = x->lod->offsets[l][end];
      start = r0;
      end = r1;
    }
  }
  bool oom;
  ic_lod *lod = ic_lodb_finish(&b, &oom);
  return ic_kset_lod(c, o, lod, true);
}

static ic_status run(ic_kctx *c) {
  ic_rank_table rt;
  ic_status st = check(c, &rt);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  size_t row = ic_row_bytes(x);
  char *dst = ic_out(c, 0, 0)->data;
  for (size_t k = 0; k < rt.n; k++) {
    size_t idx = (size_t)rt.items[2 * k];
    uint64_t r0, r1;
    ic_sub_lod(x->lod, idx, idx + 1, 0, NULL, &r0, &r1);
    if (r1 > r0) memcpy(dst, (const char *)x->data + r0 * row, (r1 - r0) * row);
    dst += (r1 - r0) * row;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"RankTable", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_reorder_lod_tensor_by_rank = {
    .name = "reorder_lod_tensor_by_rank",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
