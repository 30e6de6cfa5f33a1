/* Pruning to the fetches (options.prune): keep the ops the requested fetches depend on and
 * the ops whose effect reaches past their outputs; drop the rest before validation, so that
 * an intermediate can be fetched from a program whose later ops icore cannot run (an op
 * without a kernel, a shape a later op refuses), and fetching one value runs only its
 * producers. Paddle's Executor does the same with `use_prune`.
 *
 * One backward walk over the op sequence with a set of needed variable names. An op is kept
 * when it is a fetch op of a requested column; writes a needed variable (a feed op too: a
 * feed that nothing kept reads need not be given); writes a persistable (optimizer updates,
 * batch-norm statistics in training, counters: their values outlive the run; batch_norm at
 * inference writes its statistics back unchanged); is one of the ops with effects outside
 * their outputs (save, save_combine, print, assert); or has a sub-block (control flow) in
 * which some op, at any depth, writes a needed variable (a control-flow op's Out need not
 * list them all) or would be kept for those last two reasons. A kept op makes all its
 * inputs needed; a kept control-flow op also every variable its sub-blocks read (they may read outer variables the op does not
 * list). Names are never removed from the set, so every earlier writer of a needed variable
 * (in-place chains, arrays written element by element) is kept too: the result is a
 * superset of what the fetches need, never less. Sub-blocks are kept whole. Random ops are
 * keyed by their place in the program (ic_op_key), so those kept draw what they draw in the
 * whole program. */
#include <stdlib.h>
#include <string.h>

#include "analysis/opseq.h"
#include "common/strmap.h"

static ic_status oom(ic_err *err) { return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

static bool has_effect(const char *type) {
  static const char *const k[] = {"assert", "print", "save", "save_combine"};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    if (strcmp(type, k[i]) == 0) return true;
  }
  return false;
}

/* batch_norm at inference (is_test or use_global_stats) writes its running statistics
 * back unchanged (MeanOut and VarianceOut name Mean and Variance): not an update. */
static bool passes_stats_through(const ic_op *op, const char *slot) {
  if (strcmp(op->type, "batch_norm") && strcmp(op->type, "sync_batch_norm")) return false;
  if (strcmp(slot, "MeanOut") && strcmp(slot, "VarianceOut")) return false;
  const ic_attr *t = ic_op_attr(op, "is_test"), *g = ic_op_attr(op, "use_global_stats");
  return (t && t->i) || (g && g->i);
}

static bool writes_persistable(const ic_program *p, const ic_op *op) {
  for (size_t s = 0; s < op->n_outputs; s++) {
    if (passes_stats_through(op, op->outputs[s].name)) continue;
    for (size_t k = 0; k < op->outputs[s].n; k++) {
      const ic_vardesc *v = ic_program_find_var_global(p, op->block, op->outputs[s].args[k]);
      if (v && v->persistable) return true;
    }
  }
  return false;
}

/* The sub-blocks an op names (BLOCK and BLOCKS attributes), valid indexes only. */
static size_t sub_blocks(const ic_program *p, const ic_op *op, size_t cap, int *out) {
  size_t n = 0;
  for (size_t a = 0; a < op->n_attrs; a++) {
    const ic_attr *at = &op->attrs[a];
    if (at->type == IC_ATTR_BLOCK && at->i > 0 && (size_t)at->i < p->n_blocks && n < cap) {
      out[n++] = (int)at->i;
    }
    for (size_t k = 0; at->type == IC_ATTR_BLOCKS && k < at->n; k++) {
      if (at->ints[k] > 0 && (size_t)at->ints[k] < p->n_blocks && n < cap) {
        out[n++] = (int)at->ints[k];
      }
    }
  }
  return n;
}

/* Whether some op of block b, at any depth, has an effect past its outputs; `seen` guards
 * against a block reached twice (and against cycles a crafted program could name). */
static bool block_effects(const ic_program *p, int b, uint8_t *seen) {
  if (seen[b]) return false;
  seen[b] = 1;
  const ic_block *blk = &p->blocks[b];
  for (size_t i = 0; i < blk->n_ops; i++) {
    const ic_op *op = &blk->ops[i];
    if (has_effect(op->type) || writes_persistable(p, op)) return true;
    int sb[16];
    size_t n = sub_blocks(p, op, 16, sb);
    for (size_t k = 0; k < n; k++) {
      if (block_effects(p, sb[k], seen)) return true;
    }
  }
  return false;
}

static bool need_inputs(ic_strmap *need, const ic_op *op) {
  for (size_t s = 0; s < op->n_inputs; s++) {
    for (size_t k = 0; k < op->inputs[s].n; k++) {
      if (!ic_strmap_put(need, op->inputs[s].args[k], (void *)1)) return false;
    }
  }
  return true;
}

static bool writes_needed(const ic_strmap *need, const ic_op *op) {
  for (size_t o = 0; o < op->n_outputs; o++) {
    for (size_t a = 0; a < op->outputs[o].n; a++) {
      if (ic_strmap_get(need, op->outputs[o].args[a])) return true;
    }
  }
  return false;
}

/* Whether some op of block b, at any depth, writes a needed variable: a control-flow op's
 * Out need not list every outer variable its body writes (analysis finds them). */
static bool block_writes_needed(const ic_program *p, int b, uint8_t *seen, const ic_strmap *need) {
  if (seen[b]) return false;
  seen[b] = 1;
  const ic_block *blk = &p->blocks[b];
  for (size_t i = 0; i < blk->n_ops; i++) {
    if (writes_needed(need, &blk->ops[i])) return true;
    int sb[16];
    size_t n = sub_blocks(p, &blk->ops[i], 16, sb);
    for (size_t k = 0; k < n; k++) {
      if (block_writes_needed(p, sb[k], seen, need)) return true;
    }
  }
  return false;
}

/* Every variable the ops of block b read, at any depth. */
static bool need_block(const ic_program *p, int b, uint8_t *seen, ic_strmap *need) {
  if (seen[b]) return true;
  seen[b] = 1;
  const ic_block *blk = &p->blocks[b];
  for (size_t i = 0; i < blk->n_ops; i++) {
    if (!need_inputs(need, &blk->ops[i])) return false;
    int sb[16];
    size_t n = sub_blocks(p, &blk->ops[i], 16, sb);
    for (size_t k = 0; k < n; k++) {
      if (!need_block(p, sb[k], seen, need)) return false;
    }
  }
  return true;
}

static bool is_requested_fetch(const ic_opseq *s, size_t n_fetches, const ic_op *op) {
  const ic_attr *col = ic_op_attr(op, "col");
  if (!col) return false;
  for (size_t i = 0; i < n_fetches; i++) {
    if ((int64_t)s->fetch_col[i] == col->i) return true;
  }
  return false;
}

ic_status ic_opseq_prune(ic_opseq *s, const ic_program *p, size_t n_fetches, ic_err *err) {
  ic_strmap need;
  ic_strmap_init(&need);
  bool *keep = calloc(s->n_ops ? s->n_ops : 1, sizeof *keep);
  uint8_t *seen = calloc(p->n_blocks ? p->n_blocks : 1, 1);
  ic_status st = IC_OK;
  if (!keep || !seen) {
    st = oom(err);
    goto done;
  }
  for (size_t i = s->n_ops; i-- > 0;) {
    const ic_op *op = s->ops[i];
    bool k = has_effect(op->type) || writes_persistable(p, op);
    if (strcmp(op->type, "fetch") == 0) k = is_requested_fetch(s, n_fetches, op);
    k = k || writes_needed(&need, op);
    int sb[16];
    size_t n_sb = sub_blocks(p, op, 16, sb);
    for (size_t b = 0; !k && b < n_sb; b++) {
      memset(seen, 0, p->n_blocks);
      k = block_effects(p, sb[b], seen);
      memset(seen, 0, p->n_blocks);
      k = k || block_writes_needed(p, sb[b], seen, &need);
    }
    if (!k) continue;
    keep[i] = true;
    if (!need_inputs(&need, op)) {
      st = oom(err);
      goto done;
    }
    memset(seen, 0, p->n_blocks);
    for (size_t b = 0; b < n_sb; b++) {
      if (!need_block(p, sb[b], seen, &need)) {
        st = oom(err);
        goto done;
      }
    }
  }
  size_t n = 0;
  for (size_t i = 0; i < s->n_ops; i++) {
    if (keep[i]) s->ops[n++] = s->ops[i];
  }
  s->n_ops = n;
done:
  ic_strmap_free(&need);
  free(keep);
  free(seen);
  return st;
}
