/* Concats joined in place, at run time (the plan's side and the why: analysis/join.c).
 *
 * A run cannot know a concat's layout before its inputs exist: their dims arrive with the
 * feeds and their layouts are chosen by their kernels. So each run's concat remembers where
 * its inputs went in its output (ic_joinrt.off) when it was a chunk copy (ic_concat_chunks),
 * and the next run places a part there when the part has the same size: the first part
 * placed allocates the whole output, the others become views of it. The concat then checks
 * every input: each one in place, or of the same size and layout and copied there (inputs
 * that are not parts, parts whose producer replaced the view), before its output adopts the
 * buffer and its kernel is skipped. When anything differs (a new batch size, a part whose
 * kernel chose another layout) the concat runs its kernel into a buffer of its own: the
 * placed parts stay valid views, and the next run places by the new offsets. The first run
 * of a plan therefore copies, like any run whose sizes just changed.
 *
 * Parts run on any thread: the buffer is made once, by compare-and-swap. Offsets are written
 * only by the concat, after every part of the run (its data edges), and read by the parts of
 * the next run, which the run's end orders after it. */
#include <stdlib.h>
#include <string.h>

#include "interp/run.h"
#include "kernels/cpu/shapeops.h"

/* Parts start on 64-byte boundaries, as buffers do (oneDNN and the vector loops align). */
#define JOIN_ALIGN 64

ic_status ic_join_create(ic_rstate *rs, const ic_plan *plan) {
  if (!plan->n_joins) return IC_OK;
  if (!(rs->joins = calloc(plan->n_joins, sizeof *rs->joins))) return IC_ERR_OUT_OF_MEMORY;
  for (size_t g = 0; g < plan->n_joins; g++) {
    atomic_init(&rs->joins[g].buf, NULL);
    if (!(rs->joins[g].off = calloc(plan->joins[g].n_parts + 1, sizeof(size_t)))) {
      return IC_ERR_OUT_OF_MEMORY;
    }
  }
  return IC_OK;
}

void ic_join_reset(ic_rstate *rs, const ic_plan *plan) {
  for (size_t g = 0; rs->joins && g < plan->n_joins; g++) {
    ic_buffer_release(atomic_exchange_explicit(&rs->joins[g].buf, NULL, memory_order_acq_rel));
  }
}

void ic_join_destroy(ic_rstate *rs, const ic_plan *plan) {
  if (!rs->joins) return;
  ic_join_reset(rs, plan);
  for (size_t g = 0; g < plan->n_joins; g++) free(rs->joins[g].off);
  free(rs->joins);
  rs->joins = NULL;
}

bool ic_join_place(crun *r, const ic_instr *in, ic_tensor *t) {
  const ic_join *pj = &r->plan->joins[in->part_join - 1];
  ic_joinrt *j = &r->rs->joins[in->part_join - 1];
  const size_t k = in->part;
  /* Plain until the kernel runs, unless infer asked for padded channels (never placed). */
  if (!j->valid || t->layout != IC_LAYOUT_PLAIN || ic_tensor_nbytes(t) != j->off[k + 1] - j->off[k]) {
    return false;
  }
  ic_buffer *b = atomic_load_explicit(&j->buf, memory_order_acquire);
  if (!b) {
    /* Out of memory here is no failure: the part gets its own buffer (or the error) below. */
    ic_buffer *nb = ic_buffer_new(r->e->alloc, j->off[pj->n_parts]);
    if (!nb) return false;
    if (atomic_compare_exchange_strong_explicit(&j->buf, &b, nb, memory_order_acq_rel,
                                                memory_order_acquire)) {
      b = nb;
    } else {
      ic_buffer_release(nb);
    }
  }
  ic_buffer_retain(b);
  ic_buffer_release(t->buf);
  t->buf = b;
  t->data = (char *)b->data + j->off[k];
  return true;
}

void ic_join_concat(crun *r, uint32_t i, bool *adopted) {
  const ic_instr *in = &r->plan->instrs[i];
  const ic_join *pj = &r->plan->joins[in->join - 1];
  ic_joinrt *j = &r->rs->joins[in->join - 1];
  ic_kctx *c = &r->rs->ctx[i];
  ic_buffer *b = atomic_exchange_explicit(&j->buf, NULL, memory_order_acq_rel);
  *adopted = false;
  int layout;
  const bool chunks = ic_concat_chunks(c, &layout);
  /* Where this run's inputs go (remembered for the next run), and whether that is where this
   * run's parts were placed. A chunk copy's inputs have no padded channels: nbytes is what
   * each one occupies. */
  bool same = j->valid, valid = chunks;
  size_t off = 0;
  for (size_t k = 0; k < pj->n_parts; k++) {
    valid = valid && off % JOIN_ALIGN == 0;
    same = same && j->off[k] == off;
    j->off[k] = off;
    off += ic_tensor_nbytes(ic_in(c, 0, k));
  }
  same = same && j->off[pj->n_parts] == off;
  j->off[pj->n_parts] = off;
  ic_tensor *out = ic_out(c, 0, 0);
  if (chunks && same && b && ic_tensor_nbytes(out) == off && off <= b->bytes) {
    char *base = b->data;
    for (size_t k = 0; k < pj->n_parts; k++) {
      const ic_tensor *x = ic_in(c, 0, k);
      const size_t bytes = j->off[k + 1] - j->off[k];
      if (bytes && (char *)x->data != base + j->off[k]) memmove(base + j->off[k], x->data, bytes);
    }
    ic_buffer_retain(b);
    ic_buffer_release(out->buf);
    out->buf = b;
    out->data = base;
    out->layout = (uint8_t)layout;
    atomic_fetch_add_explicit(&r->rs->n_joined, 1, memory_order_relaxed);
    *adopted = true;
  }
  j->valid = valid && off > 0;
  ic_buffer_release(b);
}
