/* Pre-analysis: a program and its feed/fetch names become an immutable plan. Kernels are
 * chosen and attributes parsed once, every variable is resolved to an index, the dependency
 * DAG is built and pruned (dag.c), and each instruction learns which variables it releases. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/ctrlflow.h"
#include "analysis/plan.h"

#define NONE UINT32_MAX

typedef struct builder {
  ic_plan *plan;
  ic_strmap index;      /* variable name -> 1 + index */
  size_t cap_vars;
  ic_err *err;
} builder;

static ic_status oom(ic_err *err) { return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The index of variable `name`, added to the table on first sight. */
static uint32_t var_index(builder *b, const ic_op *op, const char *name) {
  uintptr_t k = (uintptr_t)ic_strmap_get(&b->index, name);
  if (k) return (uint32_t)(k - 1);
  ic_plan *p = b->plan;
  if (p->n_vars == b->cap_vars) {
    size_t cap = b->cap_vars ? b->cap_vars * 2 : 64;
    ic_pvar *nv = realloc(p->vars, cap * sizeof *nv);
    if (!nv) return NONE;
    p->vars = nv;
    b->cap_vars = cap;
  }
  uint32_t i = (uint32_t)p->n_vars;
  /* A persistable declared in a sub-block reaches block 0's table through the control-flow
   * op that runs it (ctrlflow.c): its declaration is in a descendant block. */
  const ic_vardesc *desc = ic_program_find_var_global(p->prog, op->block, name);
  p->vars[i] = (ic_pvar){.name = name,
                         .desc = desc,
                         .first_write = -1,
                         .last_use = -1};
  if (!ic_strmap_put(&b->index, name, (void *)(uintptr_t)(i + 1))) return NONE;
  p->n_vars++;
  return i;
}

static ic_status bind_slots(builder *b, ic_instr *in, const ic_slot **slots, bool out) {
  ic_plan *p = b->plan;
  size_t n = out ? in->def->n_outputs : in->def->n_inputs;
  ic_islot *is = ic_arena_calloc(p->arena, n ? n : 1, sizeof *is);
  if (!is) return oom(b->err);
  for (size_t k = 0; k < n; k++) {
    const ic_slot *s = slots[k];
    uint32_t cnt = s ? (uint32_t)s->n : 0;
    uint32_t *v = ic_arena_calloc(p->arena, cnt ? cnt : 1, sizeof *v);
    if (!v) return oom(b->err);
    for (uint32_t i = 0; i < cnt; i++) {
      if ((v[i] = var_index(b, in->op, s->args[i])) == NONE) return oom(b->err);
    }
    is[k] = (ic_islot){.n = cnt, .vars = v};
  }
  if (out) in->out = is;
  else in->in = is;
  return IC_OK;
}

/* ic_parent_index for block 0's table (control-flow ops add their sub-blocks' outer names). */
static uint32_t top_index(void *ctx, const ic_op *op, const char *name) {
  return var_index(ctx, op, name);
}

static ic_status build_instr(builder *b, size_t idx, const ic_op *op) {
  ic_plan *p = b->plan;
  ic_instr *in = &p->instrs[idx];
  ic_status st = ic_opdef_resolve(p->prog, op, &in->def, b->err);
  if (st) return st;
  in->op = op;
  in->where = p->seq.where ? p->seq.where[idx] : IC_WHERE_HOST;
  in->dev_fn = p->seq.dev_fn ? p->seq.dev_fn[idx] : NULL;
  in->stream = -1;
  in->attrs = ic_arena_alloc(p->arena, in->def->attrs_size ? in->def->attrs_size : 1);
  const ic_slot **ins = calloc(in->def->n_inputs + 1, sizeof *ins);
  const ic_slot **outs = calloc(in->def->n_outputs + 1, sizeof *outs);
  if (!in->attrs || !ins || !outs) {
    st = oom(b->err);
  } else if (!(st = ic_opdef_parse(in->def, op, in->attrs, b->err)) &&
             !(st = ic_opdef_match(in->def, op, ins, outs, b->err)) &&
             !(st = bind_slots(b, in, ins, false))) {
    st = bind_slots(b, in, outs, true);
  }
  free(ins);
  free(outs);
  if (!st && (in->def->flags & IC_OP_SUBBLOCK)) st = ic_ctrl_build(p, in, top_index, b, b->err);
  if (st) return st;
  ic_attr_reader r;
  ic_ar_init(&r, op, b->err);
  in->priority = ic_ar_int(&r, "scheduling_priority", 0);
  return r.st;
}

/* Holder slots must name the feed/fetch lists and nothing else may. */
static ic_status check_holders(builder *b) {
  ic_plan *p = b->plan;
  char where[160];
  for (size_t i = 0; i < p->n_instrs; i++) {
    const ic_instr *in = &p->instrs[i];
    for (int io = 0; io < 2; io++) {
      size_t n = io ? in->def->n_outputs : in->def->n_inputs;
      const ic_slotdef *sd = io ? in->def->outputs : in->def->inputs;
      const ic_islot *is = io ? in->out : in->in;
      for (size_t k = 0; k < n; k++) {
        for (uint32_t j = 0; j < is[k].n; j++) {
          const ic_pvar *v = &p->vars[is[k].vars[j]];
          bool want = (sd[k].flags & IC_SLOT_HOLDER) != 0;
          if (want != (v->kind == IC_PV_HOLDER)) {
            return ic_err_set(b->err, IC_ERR_INVALID_PROGRAM, "%s: %s %s '%s' is %s, expected %s",
                              ic_op_where(in->op, where, sizeof where), io ? "output" : "input",
                              sd[k].name, v->name, want ? "a tensor" : "a feed/fetch list",
                              want ? "a feed/fetch list" : "a tensor");
          }
        }
      }
    }
  }
  return IC_OK;
}

/* Variable kinds, first writes and last uses. */
static void classify(builder *b) {
  ic_plan *p = b->plan;
  for (size_t i = 0; i < p->n_instrs; i++) {
    const ic_instr *in = &p->instrs[i];
    for (size_t k = 0; k < in->def->n_inputs; k++) {
      /* An input read for its dims only does not keep the buffer alive, unless the op reads
       * LoD (IC_OP_LOD): releasing the variable drops its LoD with the buffer. */
      bool shape_only = (in->def->inputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_IGNORED)) != 0 &&
                        !(in->def->flags & IC_OP_LOD);
      for (uint32_t j = 0; j < in->in[k].n; j++) {
        ic_pvar *v = &p->vars[in->in[k].vars[j]];
        /* while_grad's own Out@GRAD (the widened slot's first entries) may be unset: zeros */
        bool zeros_if_unset = in->sub && ((in->sub->kind == IC_CTRL_WHILE_GRAD && k == 2 &&
                                           j < in->sub->n_og) ||
                                          /* recurrent_grad's outputs@GRAD: not linked */
                                          (in->sub->kind == IC_CTRL_RECURRENT_GRAD && k == 4));
        if (v->first_write < 0 && v->kind == IC_PV_TEMP && !zeros_if_unset) v->kind = IC_PV_EXTERNAL;
        if (!shape_only) v->last_use = (int32_t)i;
      }
    }
    for (size_t k = 0; k < in->def->n_outputs; k++) {
      for (uint32_t j = 0; j < in->out[k].n; j++) {
        ic_pvar *v = &p->vars[in->out[k].vars[j]];
        if (v->first_write < 0) v->first_write = (int32_t)i;
        v->last_use = (int32_t)i;
      }
    }
  }
}

/* Reference counts for GC: every instruction that reads (for data) or writes a releasable
 * variable holds one count and drops it when done; the last one frees the buffer. */
static ic_status plan_releases(builder *b) {
  ic_plan *p = b->plan;
  uint32_t *mark = malloc((p->n_vars ? p->n_vars : 1) * sizeof *mark);
  uint32_t *tmp = malloc((p->n_vars ? p->n_vars : 1) * sizeof *tmp);
  ic_status st = IC_OK;
  if (!mark || !tmp) {
    st = oom(b->err);
    goto done;
  }
  for (size_t v = 0; v < p->n_vars; v++) mark[v] = NONE;
  for (size_t i = 0; i < p->n_instrs; i++) {
    ic_instr *in = &p->instrs[i];
    uint32_t n = 0;
    for (int io = 0; io < 2; io++) {
      size_t ns = io ? in->def->n_outputs : in->def->n_inputs;
      const ic_slotdef *sd = io ? in->def->outputs : in->def->inputs;
      const ic_islot *is = io ? in->out : in->in;
      for (size_t k = 0; k < ns; k++) {
        /* a meta-only input holds no reference, except for an op reading LoD (classify) */
        if (!io && (sd[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_IGNORED)) &&
            !(in->def->flags & IC_OP_LOD)) {
          continue;
        }
        for (uint32_t j = 0; j < is[k].n; j++) {
          uint32_t v = is[k].vars[j];
          if (p->vars[v].keep || mark[v] == i) continue;
          mark[v] = (uint32_t)i;
          tmp[n++] = v;
          p->vars[v].n_uses++;
        }
      }
    }
    in->n_gc = n;
    uint32_t *gc = ic_arena_calloc(p->arena, n ? n : 1, sizeof *gc);
    if (!gc) {
      st = oom(b->err);
      goto done;
    }
    memcpy(gc, tmp, n * sizeof *gc);
    in->gc = gc;
  }
done:
  free(mark);
  free(tmp);
  return st;
}

/* A view, or an op with inputs all read for their dims only (shape; also fill_any_like,
 * whose time grows with its output: the executor looks at the outputs' size too). */
static bool reads_no_data(const ic_opdef *def) {
  if (def->flags & IC_OP_VIEW) return true;
  if (!def->n_inputs || (def->flags & (IC_OP_SUBBLOCK | IC_OP_DERIVED))) return false;
  for (size_t k = 0; k < def->n_inputs; k++) {
    if (!(def->inputs[k].flags & IC_SLOT_NO_BUFFER)) return false;
  }
  return true;
}

static void mark_aliases(ic_plan *p) {
  for (size_t i = 0; i < p->n_instrs; i++) {
    ic_instr *in = &p->instrs[i];
    in->meta_only = reads_no_data(in->def);
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
}

static uint32_t lookup(const builder *b, const char *name) {
  uintptr_t k = (uintptr_t)ic_strmap_get(&b->index, name);
  return k ? (uint32_t)(k - 1) : NONE;
}

ic_status ic_plan_build(const ic_program *prog, size_t n_feeds, const char *const *feed_names,
                        size_t n_fetches, const char *const *fetch_names,
                        const ic_plan_options *o, ic_plan **out, ic_err *err) {
  double t0 = now_ms();
  *out = NULL;
  ic_plan *p = calloc(1, sizeof *p);
  builder b = {.plan = p, .err = err};
  ic_strmap_init(&b.index);
  ic_status st;
  if (!p || !(p->arena = ic_arena_create())) {
    st = oom(err);
    goto fail;
  }
  ic_program_retain(prog);
  p->prog = prog;
  p->gc = o->gc;
  if ((st = ic_opseq_build(prog, n_feeds, feed_names, n_fetches, fetch_names, &p->seq, err))) {
    goto fail;
  }
  if (o->prune && (st = ic_opseq_prune(&p->seq, prog, n_fetches, err))) goto fail;
  if ((st = ic_opseq_validate(&p->seq, prog, err))) goto fail;
  p->device = o->device;
  if (o->fuse && (st = ic_opseq_fuse(&p->seq, prog, n_fetches, fetch_names, !o->device, err))) goto fail;
  /* Blocked activations are a CPU matter: device kernels and copies read plain tensors. */
  if (o->fuse && !o->device && !o->plain_layout &&
      (st = ic_opseq_layout(&p->seq, prog, n_fetches, fetch_names, err))) {
    goto fail;
  }
  if (o->winograd && !o->device && (st = ic_opseq_winograd(&p->seq, err))) goto fail;
  if (o->device && (st = ic_opseq_place(&p->seq, prog, o->device, err))) goto fail;
  p->n_instrs = p->seq.n_ops;
  p->instrs = ic_arena_calloc(p->arena, p->n_instrs ? p->n_instrs : 1, sizeof *p->instrs);
  if (!p->instrs) {
    st = oom(err);
    goto fail;
  }
  for (size_t i = 0; i < p->n_instrs; i++) {
    if ((st = build_instr(&b, i, p->seq.ops[i]))) goto fail;
    const ic_attr *bo = ic_op_attr(p->seq.ops[i], "ic_blocked_out");
    if (bo && bo->i) p->blocked = true;
  }
  p->feed_holder = lookup(&b, p->seq.feed_holder);
  p->fetch_holder = lookup(&b, p->seq.fetch_holder);
  for (size_t v = 0; v < p->n_vars; v++) {
    ic_pvar *pv = &p->vars[v];
    if (v == p->feed_holder || v == p->fetch_holder) pv->kind = IC_PV_HOLDER;
    else if (pv->desc && pv->desc->persistable) pv->kind = IC_PV_PERSIST;
    pv->keep = pv->kind == IC_PV_HOLDER || pv->kind == IC_PV_PERSIST;
  }
  for (size_t i = 0; i < n_feeds; i++) {
    uint32_t v = lookup(&b, feed_names[i]);
    if (v != NONE) p->vars[v].keep = true;
  }
  for (size_t i = 0; i < n_fetches; i++) {
    uint32_t v = lookup(&b, fetch_names[i]);
    if (v != NONE) p->vars[v].keep = true;
  }
  for (size_t i = 0; i < p->n_instrs; i++) {
    const ic_instr *in = &p->instrs[i];
    if (in->where != IC_WHERE_DEVICE && in->where != IC_WHERE_H2D) continue;
    for (size_t k = 0; k < in->def->n_outputs; k++) {
      for (uint32_t j = 0; j < in->out[k].n; j++) p->vars[in->out[k].vars[j]].on_device = true;
    }
  }
  for (size_t i = 0; i < p->seq.n_cached + p->seq.n_derived; i++) {
    const char *name = i < p->seq.n_cached ? p->seq.cached[i] : p->seq.derived[i - p->seq.n_cached];
    uint32_t v = lookup(&b, name);
    if (v == NONE) continue;
    p->vars[v].kind = IC_PV_CACHED;
    p->vars[v].keep = true;
  }
  if ((st = check_holders(&b))) goto fail;
  classify(&b);
  mark_aliases(p);
  if (o->fuse && !o->device && !o->no_joins && (st = ic_plan_joins(p, err))) goto fail;
  if (o->gc && (st = plan_releases(&b))) goto fail;
  if ((st = ic_plan_build_dag(p, o->sequential, err))) goto fail;
  if (o->device && (st = ic_plan_streams(p, o->streams, err))) goto fail;
  ic_strmap_free(&b.index);
  p->stats.analysis_ms = now_ms() - t0;
  *out = p;
  return IC_OK;
fail:
  ic_strmap_free(&b.index);
  ic_plan_destroy(p);
  return st;
}

void ic_plan_destroy(ic_plan *p) {
  if (!p) return;
  ic_opseq_free(&p->seq);
  ic_arena_destroy(p->arena);
  free(p->vars);
  ic_program_destroy((ic_program *)p->prog);
  free(p);
}
