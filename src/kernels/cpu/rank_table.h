/* Paddle's LoDRankTable (framework/lod_rank_table.h) as icore holds it: a LOD_RANK_TABLE
 * variable is a plain int64 tensor, written by lod_rank_table and read by max_sequence_len,
 * lod_tensor_to_array, array_to_lod_tensor, reorder_lod_tensor_by_rank and shrink_rnn_memory:
 *
 *   [level, n, index_0, length_0, ..., index_{n-1}, length_{n-1},
 *    n_coarse, len_0, offsets of coarse level 0 ..., len_1, ...]
 *
 * The items are the sequences of LoD level `level` ordered by length, longest first, ties in
 * index order (Paddle's stable sort); the coarse LoD is the `level` levels above it, which
 * array_to_lod_tensor puts back. Helpers for the op files, and LoD helpers shared by them
 * (Paddle's GetSubLoDAndAbsoluteOffset and AppendLoD). */
#ifndef IC_KERNELS_CPU_RANK_TABLE_H
#define IC_KERNELS_CPU_RANK_TABLE_H

#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

#define IC_RT_MAX_LEVELS 16

typedef struct ic_rank_table {
  int64_t level;
  size_t n;
  const int64_t *items;                    /* 2n: index, length */
  size_t n_coarse;
  size_t coarse_len[IC_RT_MAX_LEVELS];     /* offsets per coarse level */
  const int64_t *coarse[IC_RT_MAX_LEVELS];
} ic_rank_table;

/* Decode the rank table input (s, 0), checking its structure. */
static inline ic_status ic_rank_table_read(ic_kctx *c, size_t s, ic_rank_table *rt) {
  const ic_tensor *t = ic_in(c, s, 0);
  int64_t n = t && t->data && t->dtype == IC_INT64 && t->ndim == 1 ? t->dims[0] : 0;
  const int64_t *d = n ? t->data : NULL;
  bool ok = n >= 3 && d[0] >= 0 && d[1] >= 0 && d[1] <= (n - 3) / 2;
  memset(rt, 0, sizeof *rt);
  if (ok) {
    rt->level = d[0];
    rt->n = (size_t)d[1];
    rt->items = d + 2;
    int64_t at = 2 + 2 * d[1];
    rt->n_coarse = (size_t)d[at++];
    ok = rt->n_coarse <= IC_RT_MAX_LEVELS && (int64_t)rt->n_coarse == rt->level;
    for (size_t l = 0; ok && l < rt->n_coarse; l++) {
      ok = at < n && d[at] >= 0 && d[at] <= n - at - 1;
      if (!ok) break;
      rt->coarse_len[l] = (size_t)d[at];
      rt->coarse[l] = d + at + 1;
      at += 1 + d[at];
    }
    for (size_t k = 0; ok && k < rt->n; k++) ok = rt->items[2 * k] >= 0 && rt->items[2 * k + 1] >= 0;
    ok = ok && at == n;
  }
  if (!ok) {
    char desc[96];
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "input RankTable '%s' is %s, not a rank table written by lod_rank_table",
                    ic_in_name(c, s, 0), t ? ic_tensor_describe(t, desc, sizeof desc) : "absent");
  }
  return IC_OK;
}

/* The lengths of entries [start, end) of LoD levels from `from` on, and the rows they span
 * (Paddle's GetSubLoDAndAbsoluteOffset): lens[l - from] receives end - start lengths of level l
 * (when lens is not NULL); *row0, *row1 the rows. */
static inline void ic_sub_lod(const ic_lod *lod, size_t start, size_t end, size_t from,
                              uint64_t **lens, uint64_t *row0, uint64_t *row1) {
  size_t levels = lod ? lod->n_levels : 0;
  for (size_t l = from; l < levels; l++) {
    if (lens) {
      for (size_t k = start; k < end; k++) lens[l - from][k - start] = lod->offsets[l][k + 1] - lod->offsets[l][k];
    }
    size_t s2 = lod->offsets[l][start], e2 = lod->offsets[l][end];
    start = s2;
    end = e2;
  }
  *row0 = start;
  *row1 = end;
}

/* A LoD under construction by appending sequence lengths level by level (Paddle's AppendLoD
 * onto a LoD that starts empty): n_levels levels, each with a growing offset list. */
typedef struct ic_lod_builder {
  size_t n_levels;
  size_t len[IC_RT_MAX_LEVELS], cap[IC_RT_MAX_LEVELS];
  uint64_t *off[IC_RT_MAX_LEVELS];
  bool oom;
} ic_lod_builder;

static inline void ic_lodb_init(ic_lod_builder *b, size_t n_levels) {
  memset(b, 0, sizeof *b);
  b->n_levels = n_levels;
  for (size_t l = 0; l < n_levels; l++) {
    b->cap[l] = 16;
    b->off[l] = malloc(b->cap[l] * sizeof *b->off[l]);
    if (!b->off[l]) b->oom = true;
    else b->off[l][b->len[l]++] = 0;
  }
}

/* Append one sequence of length len to level l. */
static inline void ic_lodb_push(ic_lod_builder *b, size_t l, uint64_t len) {
  if (b->oom) return;
  if (b->len[l] == b->cap[l]) {
    uint64_t *o = realloc(b->off[l], 2 * b->cap[l] * sizeof *o);
    if (!o) {
      b->oom = true;
      return;
    }
    b->off[l] = o;
    b->cap[l] *= 2;
  }
  b->off[l][b->len[l]] = b->off[l][b->len[l] - 1] + len;
  b->len[l]++;
}

/* The LoD built (NULL with *oom set when out of memory, or NULL for zero levels); frees b. */
static inline ic_lod *ic_lodb_finish(ic_lod_builder *b, bool *oom) {
  ic_lod *lod = NULL;
  *oom = b->oom;
  if (!b->oom && b->n_levels) {
    lod = ic_lod_new(b->n_levels, b->len);
    if (!lod) *oom = true;
    for (size_t l = 0; lod && l < b->n_levels; l++) {
      memcpy(lod->offsets[l], b->off[l], b->len[l] * sizeof *b->off[l]);
    }
  }
  for (size_t l = 0; l < b->n_levels; l++) free(b->off[l]);
  return lod;
}

/* Bytes of one row (dims[1:]) of t. */
static inline size_t ic_row_bytes(const ic_tensor *t) {
  int64_t r = 1;
  for (int k = 1; k < t->ndim; k++) r *= t->dims[k];
  return (size_t)r * ic_dtype_size(t->dtype);
}

/* Input (s, i) must have a LoD valid for its rows, or none (allowed with may_be_plain). */
static inline ic_status ic_check_lod_input(ic_kctx *c, size_t s, size_t i, bool may_be_plain) {
  const ic_tensor *t = ic_in(c, s, i);
  char why[160], str[200];
  if (!t->lod || !t->lod->n_levels) {
    return may_be_plain ? IC_OK : ic_kfail_in(c, s, i, "without LoD, expected a LoD tensor");
  }
  if (t->ndim < 1) return ic_kfail_in(c, s, i, "expected rank >= 1 for a LoD tensor");
  if (t->lod->n_levels > IC_RT_MAX_LEVELS) {
    return ic_kfail_in(c, s, i, "with %zu LoD levels, expected at most %d", t->lod->n_levels, IC_RT_MAX_LEVELS);
  }
  if (!ic_lod_valid(t->lod, t->dims[0], why, sizeof why)) {
    return ic_kfail_in(c, s, i, "has an invalid LoD %s: %s", ic_lod_str(t->lod, str, sizeof str), why);
  }
  return IC_OK;
}

#endif
