/* shrink_rnn_memory: Out = the first rows of X that belong to the sequences of RankTable
 * still running at step I (those longer than I; the table is ordered longest first), fluid's
 * DynamicRNN shrinking its memory as sequences end. Without LoD (or when X's first level has
 * no more sequences than that), the rows themselves; with one LoD level, that many sequences'
 * rows and the level cut to them; with more levels, those sequences with the LoD under them
 * (Paddle's shrink_rnn_memory_op.cc). */
#include "kernels/cpu/rank_table.h"

/* Out's rows and, for X with LoD, its LoD (NULL without). */
static ic_status shape(ic_kctx *c, int64_t *height, ic_lod **lod) {
  ic_rank_table rt;
  ic_status st = ic_rank_table_read(c, 1, &rt);
  if (!st) st = ic_check_lod_input(c, 0, 0, true);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *it = ic_in(c, 2, 0);
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  if (!it->data || ic_tensor_numel_(it) != 1 || (it->dtype != IC_INT64 && it->dtype != IC_INT32)) {
    return ic_kfail_in(c, 2, 0, "expected one int64 element");
  }
  int64_t step = ic_read_i64(it, 0);
  if (step < 0) return ic_kfail_in(c, 2, 0, "holds %lld, expected a step >= 0", (long long)step);
  size_t rows = 0;
  while (rows < rt.n && rt.items[2 * rows + 1] > step) rows++;
  *height = (int64_t)rows;
  *lod = NULL;
  const ic_lod *xl = x->lod;
  if (xl && xl->lens[0] > rows) {
    if (xl->n_levels > 1) {
      ic_lod_builder b;
      ic_lodb_init(&b, xl->n_levels);
      size_t start = 0, end = rows;
      for (size_t l = 0; l < xl->n_levels; l++) {
        for (size_t q = start; q < end; q++) ic_lodb_push(&b, l, xl->offsets[l][q + 1] - xl->offsets[l][q]);
        size_t s2 = xl->offsets[l][start], e2 = xl->offsets[l][end];
        start = s2;
        end = e2;
      }
      *height = (int64_t)end;
      bool oom;
      *lod = ic_lodb_finish(&b, &oom);
      if (oom) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
    } else {
      size_t len = rows + 1;
      *lod = ic_lod_new(1, &len);
      if (!*lod) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
      memcpy((*lod)->offsets[0], xl->offsets[0], len * sizeof(uint64_t));
      *height = (int64_t)xl->offsets[0][rows];
    }
  }
  if (*height > x->dims[0]) {
    ic_lod_free(*lod);
    *lod = NULL;
    return ic_kfail_in(c, 0, 0, "has %lld rows, but RankTable '%s' keeps %lld at step %lld",
                      (long long)x->dims[0], ic_in_name(c, 1, 0), (long long)*height, (long long)step);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  int64_t h;
  ic_lod *lod;
  ic_status st = shape(c, &h, &lod);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t dims[IC_MAX_RANK];
  memcpy(dims, x->dims, (size_t)x->ndim * sizeof *dims);
  dims[0] = h;
  ic_tensor *o = ic_out(c, 0, 0);
  ic_tensor_set_meta(o, x->dtype, x->ndim, dims);
  return ic_kset_lod(c, o, lod, false);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  size_t bytes = (size_t)o->dims[0] * ic_row_bytes(x);
  if (bytes) memcpy(o->data, x->data, bytes);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"RankTable", IC_SLOT_VALUE}, {"I", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_shrink_rnn_memory = {
    .name = "shrink_rnn_memory",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
