/* max_sequence_len: Out (int64 [1]) = the length of the longest sequence of RankTable (its
 * first item), 0 for a table without sequences (Paddle reads past the end there). */
#include "kernels/cpu/rank_table.h"

static ic_status infer(ic_kctx *c) {
  ic_rank_table rt;
  ic_status st = ic_rank_table_read(c, 0, &rt);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT64, 1, (const int64_t[]){1});
  return ic_kset_lod(c, ic_out(c, 0, 0), NULL, false);
}

static ic_status run(ic_kctx *c) {
  ic_rank_table rt;
  ic_status st = ic_rank_table_read(c, 0, &rt);
  if (st) return st;
  *(int64_t *)ic_out(c, 0, 0)->data = rt.n ? rt.items[1] : 0;
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"RankTable", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_max_sequence_len = {
    .name = "max_sequence_len",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
