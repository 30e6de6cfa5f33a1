/* lod_rank_table: Out = the rank table of X's LoD level `level` (Paddle's LoDRankTable::Reset):
 * the level's sequences ordered by length, longest first, ties in index order, and the
 * levels above it as the coarse LoD. Encoding: kernels/cpu/rank_table.h. */
#include "kernels/cpu/rank_table.h"

typedef struct attrs {
  int64_t level;
} attrs;

static ic_status parse(ic_attr_reader *r, void *p) {
  attrs *a = p;
  a->level = ic_ar_int(r, "level", 0);
  return r->st;
}

static ic_status check(ic_kctx *c, int64_t *size) {
  const attrs *a = c->attrs;
  ic_status st = ic_check_lod_input(c, 0, 0, false);
  if (st) return st;
  const ic_lod *lod = ic_in(c, 0, 0)->lod;
  if (a->level < 0 || (size_t)a->level >= lod->n_levels) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute level is %lld, but input X '%s' has %zu LoD level(s)",
                    (long long)a->level, ic_in_name(c, 0, 0), lod->n_levels);
  }
  int64_t n = 3 + 2 * (int64_t)(lod->lens[a->level] - 1);
  for (int64_t l = 0; l < a->level; l++) n += 1 + (int64_t)lod->lens[l];
  *size = n;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  int64_t n;
  ic_status st = check(c, &n);
  if (st) return st;
  ic_tensor *o = ic_out(c, 0, 0);
  ic_tensor_set_meta(o, IC_INT64, 1, &n);
  return ic_kset_lod(c, o, NULL, false);
}

static ic_status run(ic_kctx *c) {
  const attrs *a = c->attrs;
  int64_t size;
  ic_status st = check(c, &size);
  if (st) return st;
  const ic_lod *lod = ic_in(c, 0, 0)->lod;
  const uint64_t *off = lod->offsets[a->level];
  size_t n = lod->lens[a->level] - 1;
  int64_t *d = ic_out(c, 0, 0)->data;
  d[0] = a->level;
  d[1] = (int64_t)n;
  int64_t *items = d + 2;
  /* insertion by length, descending; an item goes after every one at least as long (stable) */
  for (size_t k = 0; k < n; k++) {
    int64_t len = (int64_t)(off[k + 1] - off[k]);
    size_t at = k;
    while (at > 0 && items[2 * (at - 1) + 1] < len) {
      items[2 * at] = items[2 * (at - 1)];
      items[2 * at + 1] = items[2 * (at - 1) + 1];
      at--;
    }
    items[2 * at] = (int64_t)k;
    items[2 * at + 1] = len;
  }
  int64_t at = 2 + 2 * (int64_t)n;
  d[at++] = a->level;
  for (int64_t l = 0; l < a->level; l++) {
    d[at++] = (int64_t)lod->lens[l];
    for (size_t k = 0; k < lod->lens[l]; k++) d[at++] = (int64_t)lod->offsets[l][k];
  }
  return IC_OK;
}

/* X: infer reads its LoD (host-side bookkeeping, as Paddle runs it on the CPU); flagged as a
 * value input so that it runs on the host on a device too. */
static const ic_slotdef inputs[] = {{"X", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_lod_rank_table = {
    .name = "lod_rank_table",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
