/* Concats joined in place (CPU plans with fuse on).
 *
 * A concat whose inputs are each one contiguous chunk of its output (the axes before the
 * concat axis all of extent 1: one image along the channels, in the plain layout or in one
 * blocked layout with whole channel blocks) is a copy of every input into its place. When
 * the instruction writing an input can write it there directly, the copy goes away: the input
 * becomes a view of the concat's output buffer, and the concat adopts that buffer. PP-HGNet's
 * blocks concatenate the outputs of six convolutions (and the block's input) for a 1 x 1
 * aggregation convolution: at batch 1 the concats took 3.5 % of a one-thread run and 6.7 % at
 * two threads, all of it memory traffic (docs/BENCHMARKS.md 5b'').
 *
 * This pass decides which concat inputs may be written in place (the parts): a variable
 *   - that is a temporary (not persistable, fed, fetched, a holder or a cached constant),
 *   - written by exactly one instruction, before the concat, into an output slot that the
 *     executor allocates (no view, shared, holder or dynamic slot), that instruction writing
 *     no variable it reads (no snapshots) and running no sub-block,
 *   - named once among the concat's inputs and by no other join, its writer writing no part
 *     of another join.
 * Other inputs are copied into place by the executor when the concat runs. Plans with
 * sub-blocks have no joins (their ops write outer variables by name). Everything else, the
 * sizes and layouts, is known only at run time: interp/join.c places a part only where the
 * last run's concat found it would fit, and the concat checks every input before adopting
 * the buffer; otherwise its kernel runs as before. The values never change: a part is the
 * same bytes in a different place. */
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"

#define NONE UINT32_MAX

static bool allocated_slot(unsigned flags) {
  return !(flags & (IC_SLOT_NO_BUFFER | IC_SLOT_SHARE | IC_SLOT_HOLDER | IC_SLOT_DYNAMIC));
}

/* Whether instruction w may write variable v in place: it writes v exactly once, in an
 * allocated output slot (found at *slot, *pos). */
static bool writes_in_place(const ic_instr *w, uint32_t v, uint16_t *slot, uint16_t *pos) {
  if (w->alias || w->where != IC_WHERE_HOST || (w->def->flags & (IC_OP_SUBBLOCK | IC_OP_VIEW))) {
    return false;
  }
  int found = 0;
  for (size_t k = 0; k < w->def->n_outputs; k++) {
    for (uint32_t j = 0; j < w->out[k].n; j++) {
      if (w->out[k].vars[j] != v) continue;
      if (!allocated_slot(w->def->outputs[k].flags) || k > UINT16_MAX || j > UINT16_MAX) return false;
      *slot = (uint16_t)k;
      *pos = (uint16_t)j;
      found++;
    }
  }
  return found == 1;
}

ic_status ic_plan_joins(ic_plan *p, ic_err *err) {
  for (size_t i = 0; i < p->n_instrs; i++) {
    if (p->instrs[i].def->flags & IC_OP_SUBBLOCK) return IC_OK;
  }
  size_t n_concat = 0;
  for (size_t i = 0; i < p->n_instrs; i++) n_concat += !strcmp(p->instrs[i].op->type, "concat");
  if (!n_concat) return IC_OK;
  uint32_t *writers = calloc(p->n_vars ? p->n_vars : 1, sizeof *writers);
  bool *taken = calloc(p->n_vars ? p->n_vars : 1, sizeof *taken);
  ic_join *joins = ic_arena_calloc(p->arena, n_concat, sizeof *joins);
  if (!writers || !taken || !joins) {
    free(writers);
    free(taken);
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t i = 0; i < p->n_instrs; i++) {
    const ic_instr *in = &p->instrs[i];
    for (size_t k = 0; k < in->def->n_outputs; k++) {
      for (uint32_t j = 0; j < in->out[k].n; j++) writers[in->out[k].vars[j]]++;
    }
  }
  size_t n = 0;
  ic_status st = IC_OK;
  for (size_t c = 0; c < p->n_instrs && !st; c++) {
    ic_instr *cat = &p->instrs[c];
    if (strcmp(cat->op->type, "concat") != 0 || cat->where != IC_WHERE_HOST || cat->alias ||
        cat->def->n_inputs < 2 || cat->in[1].n || !cat->in[0].n || cat->def->n_outputs != 1 ||
        cat->out[0].n != 1) {
      continue;
    }
    const ic_islot *x = &cat->in[0];
    uint32_t *part_var = ic_arena_calloc(p->arena, x->n, sizeof *part_var);
    if (!part_var) {
      st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      break;
    }
    size_t n_parts = 0;
    for (uint32_t k = 0; k < x->n; k++) {
      part_var[k] = NONE;
      const uint32_t v = x->vars[k];
      const ic_pvar *pv = &p->vars[v];
      if (pv->kind != IC_PV_TEMP || pv->keep || taken[v] || writers[v] != 1 ||
          pv->first_write < 0 || (size_t)pv->first_write >= c) {
        continue;
      }
      bool once = true;
      for (uint32_t j = 0; j < x->n; j++) once &= j == k || x->vars[j] != v;
      ic_instr *w = &p->instrs[pv->first_write];
      uint16_t slot, pos;
      if (!once || w->part_join || !writes_in_place(w, v, &slot, &pos)) continue;
      part_var[k] = v;
      taken[v] = true;
      w->part_join = (uint32_t)n + 1;
      w->part = k;
      w->part_slot = slot;
      w->part_pos = pos;
      n_parts++;
    }
    if (!n_parts) continue;
    joins[n] = (ic_join){.concat = (uint32_t)c, .n_parts = x->n, .part_var = part_var};
    cat->join = (uint32_t)++n;
  }
  free(writers);
  free(taken);
  if (st) return st;
  p->joins = joins;
  p->n_joins = n;
  p->stats.joins = n;
  return IC_OK;
}
