/* Control flow analysis: outer reads and writes of a sub-block, and sub-plans (see
 * ctrlflow.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "analysis/plan.h"

#define NONE UINT32_MAX

static ic_status oom(ic_err *err) { return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

/* Whether block d is blk or one of its descendants. */
static bool in_subtree(const ic_program *p, int d, int blk) {
  for (int cur = d; cur >= 0; cur = p->blocks[cur].parent) {
    if (cur == blk) return true;
  }
  return false;
}

int ic_ctrl_sub_block(const ic_program *p, const ic_op *op, ic_err *err) {
  const ic_attr *sb = ic_op_attr(op, "sub_block");
  char where[160];
  if (!sb || sb->type != IC_ATTR_BLOCK || sb->i <= 0 || (size_t)sb->i >= p->n_blocks ||
      p->blocks[sb->i].parent != op->block) {
    ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: bad sub_block attribute",
               ic_op_where(op, where, sizeof where));
    return -1;
  }
  return (int)sb->i;
}

typedef struct nameset {
  ic_strmap seen;
  size_t n, cap;
  const char **v;
} nameset;

static bool ns_add(nameset *s, const char *name) {
  if (ic_strmap_get(&s->seen, name)) return true;
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    const char **v = realloc(s->v, cap * sizeof *v);
    if (!v) return false;
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = name;
  return ic_strmap_put(&s->seen, name, (void *)1);
}

static ic_status collect(const ic_program *p, int root, int blk, nameset *rd, nameset *wr,
                         ic_err *err) {
  const ic_block *b = &p->blocks[blk];
  for (size_t i = 0; i < b->n_ops; i++) {
    const ic_op *op = &b->ops[i];
    for (int io = 0; io < 2; io++) {
      size_t n = io ? op->n_outputs : op->n_inputs;
      const ic_slot *slots = io ? op->outputs : op->inputs;
      for (size_t s = 0; s < n; s++) {
        for (size_t k = 0; k < slots[s].n; k++) {
          const ic_vardesc *d = ic_program_find_var(p, blk, slots[s].args[k]);
          /* A persistable declared in the sub-block lives in the global scope (Paddle):
           * it is an outer variable like one declared in block 0. */
          if (!d || (in_subtree(p, d->block, root) && !d->persistable)) continue;
          if (!ns_add(io ? wr : rd, d->name)) return oom(err);
        }
      }
    }
    const ic_attr *sb = ic_op_attr(op, "sub_block");
    if (sb && sb->type == IC_ATTR_BLOCK && sb->i > 0 && (size_t)sb->i < p->n_blocks &&
        p->blocks[sb->i].parent == blk) {
      ic_status st = collect(p, root, (int)sb->i, rd, wr, err);
      if (st) return st;
    }
  }
  return IC_OK;
}

ic_status ic_ctrl_outer_io(const ic_program *p, int blk, ic_arena *arena, ic_outer_io *out,
                           ic_err *err) {
  nameset rd = {0}, wr = {0};
  ic_strmap_init(&rd.seen);
  ic_strmap_init(&wr.seen);
  memset(out, 0, sizeof *out);
  ic_status st = collect(p, blk, blk, &rd, &wr, err);
  if (!st) {
    out->reads = ic_arena_calloc(arena, rd.n + 1, sizeof *out->reads);
    out->writes = ic_arena_calloc(arena, wr.n + 1, sizeof *out->writes);
    if (!out->reads || !out->writes) {
      st = oom(err);
    } else {
      if (rd.n) memcpy(out->reads, rd.v, rd.n * sizeof *rd.v);
      if (wr.n) memcpy(out->writes, wr.v, wr.n * sizeof *wr.v);
      out->n_reads = rd.n;
      out->n_writes = wr.n;
    }
  }
  ic_strmap_free(&rd.seen);
  ic_strmap_free(&wr.seen);
  free(rd.v);
  free(wr.v);
  return st;
}

/* ---- sub-plans ---- */

typedef struct sbuild {
  ic_plan *plan;
  ic_subplan *sp;
  int block;
  ic_strmap index;      /* name -> 1 + index */
  uint32_t cap;
  const char **names;   /* growing, copied into the arena at the end */
  uint32_t *outer;
  ic_parent_index parent_index;
  void *parent_ctx;
  ic_err *err;
} sbuild;

static uint32_t sub_index(void *ctx, const ic_op *op, const char *name) {
  sbuild *s = ctx;
  (void)op;
  uintptr_t k = (uintptr_t)ic_strmap_get(&s->index, name);
  if (k) return (uint32_t)(k - 1);
  const ic_vardesc *d = ic_program_find_var(s->plan->prog, s->block, name);
  uint32_t outer = NONE;
  if (!d || d->block != s->block || d->persistable) {
    /* Declared outside, or persistable (Paddle keeps persistables in the global scope, so
     * they outlive iterations and runs): the parent's variable, by index. */
    outer = s->parent_index(s->parent_ctx, op, name);
    if (outer == NONE) return NONE;
  }
  if (s->sp->n_vars == s->cap) {
    uint32_t cap = s->cap ? s->cap * 2 : 32;
    const char **n = realloc(s->names, cap * sizeof *n);
    if (!n) return NONE;
    s->names = n;
    uint32_t *o = realloc(s->outer, cap * sizeof *o);
    if (!o) return NONE;
    s->outer = o;
    s->cap = cap;
  }
  uint32_t i = s->sp->n_vars;
  s->names[i] = d ? d->name : name;
  s->outer[i] = outer;
  if (!ic_strmap_put(&s->index, s->names[i], (void *)(uintptr_t)(i + 1))) return NONE;
  s->sp->n_vars++;
  return i;
}

static ic_status bind(ic_arena *a, ic_instr *in, const ic_slot **slots, bool out,
                      ic_parent_index index_of, void *ctx, ic_err *err) {
  size_t n = out ? in->def->n_outputs : in->def->n_inputs;
  ic_islot *is = ic_arena_calloc(a, n ? n : 1, sizeof *is);
  if (!is) return oom(err);
  for (size_t k = 0; k < n; k++) {
    const ic_slot *s = slots[k];
    uint32_t cnt = s ? (uint32_t)s->n : 0;
    uint32_t *v = ic_arena_calloc(a, cnt ? cnt : 1, sizeof *v);
    if (!v) return oom(err);
    for (uint32_t i = 0; i < cnt; i++) {
      if ((v[i] = index_of(ctx, in->op, s->args[i])) == NONE) return oom(err);
    }
    is[k] = (ic_islot){.n = cnt, .vars = v};
  }
  if (out) in->out = is;
  else in->in = is;
  return IC_OK;
}

/* Slot k widened by names (union, the slot's own first). */
static ic_status widen(ic_arena *a, ic_islot *slot, size_t n, const char **names,
                       const ic_op *op, ic_parent_index index_of, void *ctx, ic_err *err) {
  uint32_t *v = ic_arena_calloc(a, slot->n + n + 1, sizeof *v);
  if (!v) return oom(err);
  uint32_t cnt = 0;
  for (uint32_t i = 0; i < slot->n; i++) v[cnt++] = slot->vars[i];
  for (size_t i = 0; i < n; i++) {
    uint32_t x = index_of(ctx, op, names[i]);
    if (x == NONE) return oom(err);
    bool dup = false;
    for (uint32_t j = 0; j < cnt && !dup; j++) dup = v[j] == x;
    if (!dup) v[cnt++] = x;
  }
  *slot = (ic_islot){.n = cnt, .vars = v};
  return IC_OK;
}

static ic_status build_sub(ic_plan *plan, int block, ic_parent_index pidx, void *pctx,
                           ic_subplan **out, ic_err *err);

ic_status ic_ctrl_build(ic_plan *plan, ic_instr *in, ic_parent_index index_of, void *ctx,
                        ic_err *err) {
  /* On a device plan the op and its sub-blocks run on the host (placement put copies around
   * it: analysis/place.c), so the sub-plan is a host plan in either case. */
  int blk = ic_ctrl_sub_block(plan->prog, in->op, err);
  if (blk < 0) return err->code;
  ic_outer_io io;
  ic_status st = ic_ctrl_outer_io(plan->prog, blk, plan->arena, &io, err);
  if (st) return st;
  /* The data slots: while's X (input 0), conditional_block's Input (input 1); Out (output 0). */
  size_t data_in = strcmp(in->def->name, "while") == 0 ? 0 : 1;
  ic_islot *ins = (ic_islot *)in->in, *outs = (ic_islot *)in->out;
  if ((st = widen(plan->arena, &ins[data_in], io.n_reads, io.reads, in->op, index_of, ctx, err)) ||
      (st = widen(plan->arena, &outs[0], io.n_writes, io.writes, in->op, index_of, ctx, err))) {
    return st;
  }
  ic_subplan *sp = NULL;
  if ((st = build_sub(plan, blk, index_of, ctx, &sp, err))) return st;
  in->sub = sp;
  return IC_OK;
}

static ic_status build_sub(ic_plan *plan, int block, ic_parent_index pidx, void *pctx,
                           ic_subplan **out, ic_err *err) {
  const ic_block *b = &plan->prog->blocks[block];
  ic_subplan *sp = ic_arena_calloc(plan->arena, 1, sizeof *sp);
  if (!sp) return oom(err);
  sp->block = block;
  sbuild s = {.plan = plan, .sp = sp, .block = block, .parent_index = pidx, .parent_ctx = pctx,
              .err = err};
  ic_strmap_init(&s.index);
  ic_status st = IC_OK;
  uint32_t *last = NULL, *tmp = NULL;
  char where[160];
  sp->n_instrs = (uint32_t)b->n_ops;
  sp->instrs = ic_arena_calloc(plan->arena, b->n_ops + 1, sizeof *sp->instrs);
  if (!sp->instrs) {
    st = oom(err);
    goto done;
  }
  for (size_t i = 0; i < b->n_ops && !st; i++) {
    ic_instr *in = &sp->instrs[i];
    const ic_op *op = &b->ops[i];
    in->op = op;
    in->stream = -1;
    if ((st = ic_opdef_resolve(plan->prog, op, &in->def, err))) break;
    if (in->def->flags & (IC_OP_FEED | IC_OP_FETCH)) {
      st = ic_err_set(err, IC_ERR_UNSUPPORTED, "%s: feed and fetch ops belong in block 0",
                      ic_op_where(op, where, sizeof where));
      break;
    }
    in->attrs = ic_arena_calloc(plan->arena, 1, in->def->attrs_size ? in->def->attrs_size : 1);
    const ic_slot **ins = calloc(in->def->n_inputs + 1, sizeof *ins);
    const ic_slot **outs = calloc(in->def->n_outputs + 1, sizeof *outs);
    if (!in->attrs || !ins || !outs) st = oom(err);
    if (!st) st = ic_opdef_parse(in->def, op, in->attrs, err);
    if (!st) st = ic_opdef_match(in->def, op, ins, outs, err);
    if (!st) st = bind(plan->arena, in, ins, false, sub_index, &s, err);
    if (!st) st = bind(plan->arena, in, outs, true, sub_index, &s, err);
    free(ins);
    free(outs);
    if (!st && (in->def->flags & IC_OP_SUBBLOCK)) st = ic_ctrl_build(plan, in, sub_index, &s, err);
    if (st) break;
    for (size_t ko = 0; ko < in->def->n_outputs && !in->alias; ko++) {
      for (uint32_t jo = 0; jo < in->out[ko].n && !in->alias; jo++) {
        for (size_t ki = 0; ki < in->def->n_inputs && !in->alias; ki++) {
          for (uint32_t ji = 0; ji < in->in[ki].n && !in->alias; ji++) {
            in->alias = in->in[ki].vars[ji] == in->out[ko].vars[jo];
          }
        }
      }
    }
  }
  if (st) goto done;
  /* Release lists: each of the block's own variables is dropped after the last instruction
   * of an iteration that uses it. */
  uint32_t nv = sp->n_vars;
  last = malloc((nv + 1) * sizeof *last);
  tmp = malloc((nv + 1) * sizeof *tmp);
  if (!last || !tmp) {
    st = oom(err);
    goto done;
  }
  for (uint32_t v = 0; v < nv; v++) last[v] = NONE;
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    const ic_instr *in = &sp->instrs[i];
    for (int io = 0; io < 2; io++) {
      size_t ns = io ? in->def->n_outputs : in->def->n_inputs;
      const ic_islot *is = io ? in->out : in->in;
      for (size_t k = 0; k < ns; k++) {
        for (uint32_t j = 0; j < is[k].n; j++) last[is[k].vars[j]] = i;
      }
    }
  }
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    ic_instr *in = &sp->instrs[i];
    uint32_t n = 0;
    for (uint32_t v = 0; v < nv; v++) {
      if (last[v] == i && s.outer[v] == NONE) tmp[n++] = v;
    }
    uint32_t *gc = ic_arena_calloc(plan->arena, n + 1, sizeof *gc);
    if (!gc) {
      st = oom(err);
      goto done;
    }
    if (n) memcpy(gc, tmp, n * sizeof *gc);
    in->gc = gc;
    in->n_gc = n;
  }
  const char **names = ic_arena_calloc(plan->arena, nv + 1, sizeof *names);
  uint32_t *outer = ic_arena_calloc(plan->arena, nv + 1, sizeof *outer);
  if (!names || !outer) {
    st = oom(err);
    goto done;
  }
  if (nv) {
    memcpy(names, s.names, nv * sizeof *names);
    memcpy(outer, s.outer, nv * sizeof *outer);
  }
  sp->names = names;
  sp->outer = outer;
  *out = sp;
done:
  free(last);
  free(tmp);
  free(s.names);
  free(s.outer);
  ic_strmap_free(&s.index);
  return st;
}
