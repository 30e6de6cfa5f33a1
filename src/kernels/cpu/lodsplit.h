/* Shared by split_lod_tensor, merge_lod_tensor and merge_lod_tensor_infer (fluid's IfElse):
 * Paddle's GetSubLoDAndAbsoluteOffset and AppendLoD (paddle/fluid/framework/lod_tensor.cc,
 * paddle/phi/core/lod_utils.cc) over icore's LoD, building an output LoD level by level. */
#ifndef IC_KERNELS_CPU_LODSPLIT_H
#define IC_KERNELS_CPU_LODSPLIT_H

#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

#define IC_LODSPLIT_MAX_LEVELS 16

/* An output LoD under construction: AppendLoD's state (n_levels 0: empty). */
typedef struct ic_lodbuild {
  size_t n_levels;
  uint64_t *v[IC_LODSPLIT_MAX_LEVELS];
  size_t n[IC_LODSPLIT_MAX_LEVELS], cap[IC_LODSPLIT_MAX_LEVELS];
} ic_lodbuild;

static inline void ic_lodbuild_free(ic_lodbuild *b) {
  for (size_t l = 0; l < IC_LODSPLIT_MAX_LEVELS; l++) free(b->v[l]);
  memset(b, 0, sizeof *b);
}

static inline bool ic_lodbuild_push(ic_lodbuild *b, size_t l, uint64_t x) {
  if (b->n[l] == b->cap[l]) {
    size_t cap = b->cap[l] ? 2 * b->cap[l] : 16;
    uint64_t *p = realloc(b->v[l], cap * sizeof *p);
    if (!p) return false;
    b->v[l] = p, b->cap[l] = cap;
  }
  b->v[l][b->n[l]++] = x;
  return true;
}

/* The sequences [s, e) of level `level` of lod (NULL: none): their lengths at every level
 * from `level` down are appended to b (AppendLoD: an empty b takes that many levels; a
 * non-empty one must have as many), and *rb, *re receive the rows they span. Without levels
 * below `level` the sequences are rows. Returns 0, 1 when e is beyond the level's sequences
 * (Paddle's check), 2 when b's levels differ, 3 when out of memory. */
static inline int ic_lodsplit_sub(const ic_lod *lod, size_t level, uint64_t s, uint64_t e,
                                  ic_lodbuild *b, uint64_t *rb, uint64_t *re) {
  const size_t nl = lod && lod->n_levels > level ? lod->n_levels - level : 0;
  for (size_t k = 0; k < nl; k++) {
    if (e >= lod->lens[level + k]) return 1;
  }
  if (nl) {
    if (b->n_levels == 0) {
      if (nl > IC_LODSPLIT_MAX_LEVELS) return 2;
      b->n_levels = nl;
      for (size_t k = 0; k < nl; k++) {
        b->n[k] = 0;
        if (!ic_lodbuild_push(b, k, 0)) return 3;
      }
    } else if (b->n_levels != nl) {
      return 2;
    }
  } else if (b->n_levels != 0) {
    return 2;
  }
  for (size_t k = 0; k < nl; k++) {
    const uint64_t *off = lod->offsets[level + k];
    for (uint64_t i = s; i < e; i++) {
      if (!ic_lodbuild_push(b, k, b->v[k][b->n[k] - 1] + (off[i + 1] - off[i]))) return 3;
    }
    s = off[s], e = off[e];
  }
  *rb = s, *re = e;
  return 0;
}

/* b as an ic_lod, with the first `n_pre` levels of pre before its own (NULL: no levels at
 * all; *oom set when allocation failed). */
static inline ic_lod *ic_lodbuild_take(const ic_lodbuild *b, const ic_lod *pre, size_t n_pre,
                                       bool *oom) {
  *oom = false;
  const size_t n = n_pre + b->n_levels;
  if (n == 0) return NULL;
  size_t lens[2 * IC_LODSPLIT_MAX_LEVELS];
  if (n > sizeof lens / sizeof lens[0]) {
    *oom = true;
    return NULL;
  }
  for (size_t l = 0; l < n_pre; l++) lens[l] = pre->lens[l];
  for (size_t l = 0; l < b->n_levels; l++) lens[n_pre + l] = b->n[l];
  ic_lod *lod = ic_lod_new(n, lens);
  if (!lod) {
    *oom = true;
    return NULL;
  }
  for (size_t l = 0; l < n_pre; l++) memcpy(lod->offsets[l], pre->offsets[l], lens[l] * sizeof(uint64_t));
  for (size_t l = 0; l < b->n_levels; l++) {
    memcpy(lod->offsets[n_pre + l], b->v[l], b->n[l] * sizeof(uint64_t));
  }
  return lod;
}

/* The Mask input of the three ops: bool [N, 1] (Paddle's infer-shape check). */
static inline ic_status ic_lodsplit_mask(ic_kctx *c, size_t slot) {
  const ic_tensor *m = ic_in(c, slot, 0);
  if (m->dtype != IC_BOOL || m->ndim != 2 || m->dims[1] != 1 || !m->data) {
    return ic_kfail_in(c, slot, 0, "expected bool [N, 1] (one condition per sequence)");
  }
  return IC_OK;
}

/* merge_lod_tensor and merge_lod_tensor_infer (merge_lod_tensor.c). */
ic_status ic_merge_lod_parse(ic_attr_reader *r, void *attrs);
ic_status ic_merge_lod_infer(ic_kctx *c);
ic_status ic_merge_lod_run(ic_kctx *c);
typedef struct ic_merge_lod_attrs {
  int64_t level;
} ic_merge_lod_attrs;

#endif
