/* Paddle's "batch" order of LoD sequences (paddle/phi/kernels/funcs/sequence2batch: what
 * LoDTensor2BatchFunctor computes), shared by gru, lstm and their gradients. The sequences of
 * Input's last LoD level are sorted by length, longest first (ties keep their order: Paddle's
 * std::sort does so for up to 16 sequences); batch k then holds step k of every sequence
 * longer than k, in that order, so each batch is a prefix of the one before it and a GEMM over
 * a batch's rows advances every live sequence one step. With is_reverse a sequence's step k
 * is its row len - 1 - k. Paddle records the plan as the batch tensors' LoD of three levels:
 *   level 0  batch offsets, batches + 1 entries (starts[k]: first row of batch k);
 *   level 1  for each batch row, the Input row it holds (rows[r]);
 *   level 2  for each position in a batch, the sequence it holds (order[i]).
 * Levels 1 and 2 are indices, not offsets: the LoD is not a valid sequence LoD (ic_lod_valid)
 * and only these ops read it. */
#ifndef IC_KERNELS_CPU_SEQBATCH_H
#define IC_KERNELS_CPU_SEQBATCH_H

#include <stdint.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct ic_seqbatch {
  size_t ns;        /* sequences */
  size_t nb;        /* batches (the longest length) */
  size_t rows;      /* rows of Input */
  uint64_t *starts; /* nb + 1 */
  uint64_t *row;    /* rows: batch row -> Input row */
  uint64_t *order;  /* ns: batch position -> sequence */
} ic_seqbatch;

/* Words of storage ic_seqbatch_build needs for ns sequences over `rows` rows. */
static inline size_t ic_seqbatch_words(size_t ns, size_t rows) { return 3 * rows + 2 * ns + 3; }

/* Build the plan of the sequences off[0..ns] (a valid LoD level ending at rows) into mem
 * (ic_seqbatch_words(ns, rows) words). */
static inline void ic_seqbatch_build(const uint64_t *off, size_t ns, size_t rows, bool reverse,
                                     uint64_t *mem, ic_seqbatch *p) {
  p->ns = ns;
  p->rows = rows;
  p->order = mem;
  p->starts = mem + ns;
  uint64_t *len = p->starts + rows + 1; /* ns words: lengths by position */
  p->row = len + ns;
  uint64_t *at = p->row + rows; /* rows + 2 words: per length, the first position */
  /* counting sort by length, longest first, ties in sequence order (stable) */
  memset(at, 0, (rows + 2) * sizeof *at);
  for (size_t q = 0; q < ns; q++) at[off[q + 1] - off[q]]++;
  uint64_t before = 0;
  for (size_t l = rows + 1; l-- > 0;) {
    const uint64_t n = at[l];
    at[l] = before;
    before += n;
  }
  for (size_t q = 0; q < ns; q++) {
    const uint64_t l = off[q + 1] - off[q], i = at[l]++;
    p->order[i] = q;
    len[i] = l;
  }
  p->nb = ns ? (size_t)len[0] : 0;
  uint64_t r = 0;
  size_t live = ns;
  for (size_t k = 0; k < p->nb; k++) {
    while (live > 0 && len[live - 1] <= k) live--;
    p->starts[k] = r;
    for (size_t i = 0; i < live; i++) {
      const uint64_t q = p->order[i], l = len[i];
      p->row[r++] = off[q] + (reverse ? l - 1 - k : k);
    }
  }
  p->starts[p->nb] = r;
}

/* The plan as Paddle's three-level batch LoD (NULL: out of memory). */
static inline ic_lod *ic_seqbatch_lod(const ic_seqbatch *p) {
  const size_t lens[3] = {p->nb + 1, p->rows, p->ns};
  ic_lod *l = ic_lod_new(3, lens);
  if (!l) return NULL;
  memcpy(l->offsets[0], p->starts, lens[0] * sizeof(uint64_t));
  memcpy(l->offsets[1], p->row, lens[1] * sizeof(uint64_t));
  memcpy(l->offsets[2], p->order, lens[2] * sizeof(uint64_t));
  return l;
}

/* Build the plan of input (s, 0)'s last LoD level (checked by ic_kseq) in scratch memory the
 * caller releases; NULL with c->err set on failure. */
static inline ic_buffer *ic_seqbatch_plan(ic_kctx *c, size_t s, bool reverse, ic_seqbatch *p) {
  const ic_tensor *x = ic_in(c, s, 0);
  size_t ns;
  const uint64_t *off = ic_kseq(c, s, 0, 0, &ns);
  if (!off) return NULL;
  const size_t rows = (size_t)x->dims[0];
  ic_buffer *b = ic_kscratch(c, ic_seqbatch_words(ns, rows) * sizeof(uint64_t));
  if (b) ic_seqbatch_build(off, ns, rows, reverse, b->data, p);
  return b;
}

/* infer: give each non-NULL tensor of outs the batch LoD of input (s, 0) (Paddle's BatchGate
 * and the batch tensors that share its LoD). */
static inline ic_status ic_seqbatch_set_lods(ic_kctx *c, size_t s, bool reverse,
                                             ic_tensor *const *outs, size_t n) {
  ic_seqbatch p;
  ic_buffer *b = ic_seqbatch_plan(c, s, reverse, &p);
  if (!b) return c->err->code;
  ic_status st = IC_OK;
  for (size_t i = 0; !st && i < n; i++) {
    if (outs[i]) st = ic_kset_lod(c, outs[i], ic_seqbatch_lod(&p), true);
  }
  ic_buffer_release(b);
  return st;
}

/* infer of a gradient: when input (g, 0) (the forward's BatchGate) carries a LoD, it must be
 * the batch LoD of input (s, 0) with is_reverse `reverse` (the forward ran on that Input with
 * that attribute). */
static inline ic_status ic_seqbatch_check(ic_kctx *c, size_t s, bool reverse, size_t g) {
  const ic_tensor *t = ic_in(c, g, 0);
  if (!t || !t->lod) return IC_OK;
  ic_seqbatch p;
  ic_buffer *b = ic_seqbatch_plan(c, s, reverse, &p);
  if (!b) return c->err->code;
  ic_lod *want = ic_seqbatch_lod(&p);
  ic_buffer_release(b);
  if (!want) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
  const bool same = ic_lod_equal(want, t->lod);
  ic_lod_free(want);
  if (same) return IC_OK;
  return ic_kfail_in(c, g, 0, "has a LoD that is not the batch order of input %s with is_reverse "
                     "%s (expected the forward op's output for the same Input and attributes)",
                     c->def->inputs[s].name, reverse ? "true" : "false");
}

#endif
