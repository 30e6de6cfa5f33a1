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

/* The names a recurrent op links into each step (its block's own, wherever declared). */
static ic_status rnn_local_names(const ic_rnn_spec *r, ic_strmap *m, ic_err *err) {
  for (size_t k = 0; k < r->n_in + 2 * r->n_states + r->n_out; k++) {
    const char *nm = k < r->n_in ? r->in[k]
                     : k < r->n_in + r->n_states ? r->ex[k - r->n_in]
                     : k < r->n_in + 2 * r->n_states ? r->st[k - r->n_in - r->n_states]
                     : r->out[k - r->n_in - 2 * r->n_states];
    if (!ic_strmap_put(m, nm, (void *)1)) return oom(err);
  }
  return IC_OK;
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

static ic_status collect(const ic_program *p, int root, int blk, const ic_strmap *skip,
                         nameset *rd, nameset *wr, ic_err *err) {
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
          /* A grad block's step-scope names (the forward block's variables, the saved and
           * local names) are not outer. */
          if (skip && (ic_strmap_get(skip, d->name) ||
                       (!d->persistable && p->blocks[root].forward >= 0 &&
                        in_subtree(p, d->block, p->blocks[root].forward)))) {
            continue;
          }
          if (!ns_add(io ? wr : rd, d->name)) return oom(err);
        }
      }
    }
    const ic_attr *sb = ic_op_attr(op, "sub_block");
    if (sb && sb->type == IC_ATTR_BLOCK && sb->i > 0 && (size_t)sb->i < p->n_blocks &&
        p->blocks[sb->i].parent == blk) {
      ic_status st = collect(p, root, (int)sb->i, skip, rd, wr, err);
      if (st) return st;
    }
  }
  return IC_OK;
}

ic_status ic_ctrl_outer_io(const ic_program *p, const ic_op *op, ic_arena *arena,
                           ic_outer_io *out, ic_err *err) {
  nameset rd = {0}, wr = {0};
  ic_strmap_init(&rd.seen);
  ic_strmap_init(&wr.seen);
  memset(out, 0, sizeof *out);
  ic_strmap skip;
  ic_strmap_init(&skip);
  int blk = ic_ctrl_sub_block(p, op, err);
  ic_status st = blk < 0 ? err->code : IC_OK;
  ic_ctrl_kind kind = ic_ctrl_kind_of(op);
  bool grad = kind == IC_CTRL_WHILE_GRAD || kind == IC_CTRL_COND_GRAD ||
              kind == IC_CTRL_RECURRENT_GRAD;
  if (!st && grad) {
    ic_ctrl_grad_names gn;
    st = ic_ctrl_grad_names_of(p, ic_ctrl_find_fwd(p, op), op, arena, &gn, err);
    for (size_t k = 0; !st && k < gn.n_saved + gn.n_local; k++) {
      const char *nm = k < gn.n_saved ? gn.saved[k] : gn.local[k - gn.n_saved];
      if (!ic_strmap_put(&skip, nm, (void *)1)) st = oom(err);
    }
  }
  bool rnn = kind == IC_CTRL_RECURRENT;
  ic_rnn_spec rs;
  if (!st && rnn && !(st = ic_ctrl_rnn_spec(p, op, &rs, err))) {
    st = rnn_local_names(&rs, &skip, err);
  }
  if (!st) st = collect(p, blk, blk, grad || rnn ? &skip : NULL, &rd, &wr, err);
  /* recurrent_grad: a states[k]@GRAD declared outside is read at the first step back */
  if (!st && kind == IC_CTRL_RECURRENT_GRAD && !(st = ic_ctrl_rnn_spec(p, op, &rs, err))) {
    for (size_t k = 0; !st && k < rs.n_states; k++) {
      const char *nm = ic_ctrl_grad_name(arena, rs.st[k]);
      const ic_vardesc *d = nm ? ic_program_find_var(p, op->block, nm) : NULL;
      if (!nm) st = oom(err);
      else if (d && !ns_add(&rd, d->name)) st = oom(err);
    }
  }
  /* A recurrent's own links are outer variables the op reads and writes (its step block
   * reads and writes the linked names of its own). */
  for (size_t s = 0; !st && rnn && s < op->n_inputs + op->n_outputs; s++) {
    bool w = s >= op->n_inputs;
    const ic_slot *sl = w ? &op->outputs[s - op->n_inputs] : &op->inputs[s];
    if (w && strcmp(sl->name, "outputs") != 0) continue;
    for (size_t k = 0; !st && k < sl->n; k++) {
      if (!ns_add(w ? &wr : &rd, sl->args[k])) st = oom(err);
    }
  }
  ic_strmap_free(&skip);
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

/* ---- gradients of control flow ---- */

ic_ctrl_kind ic_ctrl_kind_of(const ic_op *op) {
  const char *t = op->type;
  if (strcmp(t, "while") == 0) return IC_CTRL_WHILE;
  if (strcmp(t, "conditional_block") == 0 || strcmp(t, "conditional_block_infer") == 0) {
    return IC_CTRL_COND;
  }
  if (strcmp(t, "while_grad") == 0) return IC_CTRL_WHILE_GRAD;
  if (strcmp(t, "conditional_block_grad") == 0) return IC_CTRL_COND_GRAD;
  if (strcmp(t, "recurrent") == 0) return IC_CTRL_RECURRENT;
  if (strcmp(t, "recurrent_grad") == 0) return IC_CTRL_RECURRENT_GRAD;
  return IC_CTRL_NONE;
}

static const char *one_name(const ic_slot *s) { return s && s->n == 1 ? s->args[0] : NULL; }

const char *ic_ctrl_steps_name(const ic_op *op) {
  switch (ic_ctrl_kind_of(op)) {
  case IC_CTRL_WHILE: return one_name(ic_op_output(op, "StepScopes"));
  case IC_CTRL_COND: return one_name(ic_op_output(op, "Scope"));
  case IC_CTRL_WHILE_GRAD: return one_name(ic_op_input(op, "StepScopes"));
  case IC_CTRL_COND_GRAD: return one_name(ic_op_input(op, "Scope"));
  case IC_CTRL_RECURRENT: return one_name(ic_op_output(op, "step_scopes"));
  case IC_CTRL_RECURRENT_GRAD: return one_name(ic_op_input(op, "step_scopes"));
  default: return NULL;
  }
}

static bool attr_true(const ic_op *op, const char *name) {
  const ic_attr *a = ic_op_attr(op, name);
  return a && a->i != 0;
}

const ic_op *ic_ctrl_find_grad(const ic_program *p, const ic_op *fwd) {
  ic_ctrl_kind k = ic_ctrl_kind_of(fwd);
  if (k != IC_CTRL_WHILE && k != IC_CTRL_COND && k != IC_CTRL_RECURRENT) return NULL;
  if (k == IC_CTRL_WHILE && attr_true(fwd, "is_test")) return NULL;
  /* a recurrent with is_train false keeps no steps (Paddle's keeps two scopes, and its
   * recurrent_grad refuses to run) */
  const ic_attr *train = k == IC_CTRL_RECURRENT ? ic_op_attr(fwd, "is_train") : NULL;
  if (train && train->i == 0) return NULL;
  const char *steps = ic_ctrl_steps_name(fwd);
  if (!steps || fwd->index < 0 || fwd->block < 0 || (size_t)fwd->block >= p->n_blocks) return NULL;
  const ic_block *b = &p->blocks[fwd->block];
  ic_ctrl_kind want = k == IC_CTRL_WHILE ? IC_CTRL_WHILE_GRAD
                     : k == IC_CTRL_RECURRENT ? IC_CTRL_RECURRENT_GRAD : IC_CTRL_COND_GRAD;
  for (size_t i = (size_t)fwd->index + 1; i < b->n_ops; i++) {
    const char *g = ic_ctrl_kind_of(&b->ops[i]) == want ? ic_ctrl_steps_name(&b->ops[i]) : NULL;
    if (g && strcmp(g, steps) == 0) return &b->ops[i];
  }
  /* Nested in a differentiated body: Paddle puts the grad op in the body's grad block. */
  for (size_t gb = 1; fwd->block > 0 && gb < p->n_blocks; gb++) {
    if (p->blocks[gb].forward != fwd->block) continue;
    const ic_block *g = &p->blocks[gb];
    for (size_t i = 0; i < g->n_ops; i++) {
      const char *n = ic_ctrl_kind_of(&g->ops[i]) == want ? ic_ctrl_steps_name(&g->ops[i]) : NULL;
      if (n && strcmp(n, steps) == 0) return &g->ops[i];
    }
  }
  return NULL;
}

const ic_op *ic_ctrl_find_fwd(const ic_program *p, const ic_op *grad) {
  ic_ctrl_kind k = ic_ctrl_kind_of(grad);
  if (k != IC_CTRL_WHILE_GRAD && k != IC_CTRL_COND_GRAD && k != IC_CTRL_RECURRENT_GRAD) return NULL;
  const char *steps = ic_ctrl_steps_name(grad);
  if (!steps || grad->index < 0 || grad->block < 0 || (size_t)grad->block >= p->n_blocks) return NULL;
  const ic_block *b = &p->blocks[grad->block];
  ic_ctrl_kind want = k == IC_CTRL_WHILE_GRAD ? IC_CTRL_WHILE
                     : k == IC_CTRL_RECURRENT_GRAD ? IC_CTRL_RECURRENT : IC_CTRL_COND;
  for (size_t i = (size_t)grad->index; i-- > 0;) {
    const char *f = ic_ctrl_kind_of(&b->ops[i]) == want ? ic_ctrl_steps_name(&b->ops[i]) : NULL;
    if (f && strcmp(f, steps) == 0) return &b->ops[i];
  }
  /* In a grad block: the forward op is in the block it differentiates. */
  if (b->forward >= 0 && (size_t)b->forward < p->n_blocks) {
    const ic_block *f = &p->blocks[b->forward];
    for (size_t i = 0; i < f->n_ops; i++) {
      const char *n = ic_ctrl_kind_of(&f->ops[i]) == want ? ic_ctrl_steps_name(&f->ops[i]) : NULL;
      if (n && strcmp(n, steps) == 0) return &f->ops[i];
    }
  }
  return NULL;
}

const char *ic_ctrl_grad_name(ic_arena *arena, const char *x) {
  size_t n = strlen(x);
  char *g = ic_arena_alloc(arena, n + sizeof "@GRAD");
  if (!g) return NULL;
  memcpy(g, x, n);
  memcpy(g + n, "@GRAD", sizeof "@GRAD");
  return g;
}

/* Whether an op of block blk (its own ops) reads and writes name (Paddle's while copies no
 * such input into the step scope: the iteration's start value is gone). */
static bool inplace_in(const ic_program *p, int blk, const char *name) {
  const ic_block *b = &p->blocks[blk];
  for (size_t i = 0; i < b->n_ops; i++) {
    bool r = false, w = false;
    for (int io = 0; io < 2; io++) {
      size_t n = io ? b->ops[i].n_outputs : b->ops[i].n_inputs;
      const ic_slot *sl = io ? b->ops[i].outputs : b->ops[i].inputs;
      for (size_t s = 0; s < n; s++) {
        for (size_t k = 0; k < sl[s].n; k++) {
          if (strcmp(sl[s].args[k], name) == 0) *(io ? &w : &r) = true;
        }
      }
    }
    if (r && w) return true;
  }
  return false;
}

static bool slot_has(const ic_slot *s, const char *name) {
  for (size_t k = 0; s && k < s->n; k++) {
    if (strcmp(s->args[k], name) == 0) return true;
  }
  return false;
}

typedef struct gwalk {
  const ic_program *p;
  const ic_op *fwd;
  int fblk, gblk;
  ic_strmap *local, *seen;
  nameset *saved;
  bool *at_start; /* grows with saved (cap of saved) */
  size_t cap;
} gwalk;

static ic_status walk_reads(gwalk *g, int blk, ic_err *err) {
  const ic_block *b = &g->p->blocks[blk];
  for (size_t i = 0; i < b->n_ops; i++) {
    const ic_op *op = &b->ops[i];
    /* A nested grad op (control flow inside the differentiated body) reads its forward's
     * StepScopes / Scope, a variable of this forward block: kept per iteration like any
     * other, so the nested grad finds the state of the iteration being differentiated; what
     * its own grad block reads of the nested forward block is kept by that forward. */
    for (size_t s = 0; s < op->n_inputs; s++) {
      for (size_t k = 0; k < op->inputs[s].n; k++) {
        const char *name = op->inputs[s].args[k];
        if (ic_strmap_get(g->seen, name) || ic_strmap_get(g->local, name)) continue;
        if (!ic_strmap_put(g->seen, name, (void *)1)) return oom(err);
        const ic_vardesc *d = ic_program_find_var(g->p, blk, name);
        if (!d || d->persistable) continue;
        bool end = d->block == g->fblk;
        bool start = !end && ic_ctrl_kind_of(g->fwd) == IC_CTRL_WHILE &&
                     !in_subtree(g->p, d->block, g->gblk) && d->type == 7 /* LOD_TENSOR */ &&
                     slot_has(ic_op_input(g->fwd, "X"), name) && !inplace_in(g->p, g->fblk, name);
        if (!end && !start) continue;
        if (!ns_add(g->saved, d->name)) return oom(err);
        if (g->saved->n > g->cap) {
          size_t cap = g->saved->cap;
          bool *a = realloc(g->at_start, cap * sizeof *a);
          if (!a) return oom(err);
          g->at_start = a;
          g->cap = cap;
        }
        g->at_start[g->saved->n - 1] = start;
      }
    }
    const ic_attr *sb = ic_op_attr(op, "sub_block");
    if (sb && sb->type == IC_ATTR_BLOCK && sb->i > 0 && (size_t)sb->i < g->p->n_blocks &&
        g->p->blocks[sb->i].parent == blk) {
      ic_status st = walk_reads(g, (int)sb->i, err);
      if (st) return st;
    }
  }
  return IC_OK;
}

ic_status ic_ctrl_grad_names_of(const ic_program *p, const ic_op *fwd, const ic_op *grad,
                                ic_arena *arena, ic_ctrl_grad_names *out, ic_err *err) {
  memset(out, 0, sizeof *out);
  int gblk = ic_ctrl_sub_block(p, grad, err);
  if (gblk < 0) return err->code;
  bool is_while = ic_ctrl_kind_of(grad) == IC_CTRL_WHILE_GRAD;
  nameset loc = {0}, saved = {0};
  ic_strmap seen;
  ic_strmap_init(&loc.seen);
  ic_strmap_init(&saved.seen);
  ic_strmap_init(&seen);
  gwalk g = {.p = p, .fwd = fwd, .gblk = gblk, .local = &loc.seen, .seen = &seen, .saved = &saved};
  ic_status st = IC_OK;
  if (ic_ctrl_kind_of(grad) == IC_CTRL_RECURRENT_GRAD) {
    /* recurrent_grad: the linked output gradients and the inside gradients of the inputs,
     * memories and parameters are the step's own, wherever declared */
    ic_rnn_spec r;
    st = ic_ctrl_rnn_spec(p, grad, &r, err);
    const ic_slot *og = ic_op_input(grad, "outputs@GRAD"), *pm = ic_op_input(grad, "parameters");
    for (size_t k = 0; !st && og && k < og->n; k++) {
      if (strcmp(og->args[k], "@EMPTY@") != 0 && !ns_add(&loc, og->args[k])) st = oom(err);
    }
    size_t n_pm = pm ? pm->n : 0;
    for (size_t k = 0; !st && k < r.n_in + 2 * r.n_states + n_pm; k++) {
      const char *x = k < r.n_in ? r.in[k]
                      : k < r.n_in + r.n_states ? r.ex[k - r.n_in]
                      : k < r.n_in + 2 * r.n_states ? r.st[k - r.n_in - r.n_states]
                      : pm->args[k - r.n_in - 2 * r.n_states];
      const char *nm = ic_ctrl_grad_name(arena, x);
      if (!nm || !ns_add(&loc, nm)) st = oom(err);
    }
  } else if (is_while) {
    const ic_attr *og = ic_op_attr(grad, "original_output_grad");
    for (size_t k = 0; og && og->type == IC_ATTR_STRINGS && k < og->n && !st; k++) {
      if (!ns_add(&loc, og->strings[k])) st = oom(err);
    }
  }
  /* An inside gradient is the grad block's own only where Paddle's step scope holds it: a
   * variable the grad block declares (or its forward block), or a linked output gradient.
   * One declared further out (Paddle's backward declares no new gradient variable where an
   * enclosing block has one) is that outer variable: Paddle's grad ops write it there, and
   * the grad op finds no gradient of its own. */
  const ic_slot *xs = ic_op_input(grad, is_while ? "X" : "Input");
  const ic_slot *xg = ic_op_output(grad, is_while ? "X@GRAD" : "Input@GRAD");
  int fblk = p->blocks[gblk].forward;
  for (size_t k = 0; xs && xg && k < xg->n && k < xs->n && !st; k++) {
    if (strcmp(xg->args[k], "@EMPTY@") == 0) continue;
    const char *nm = ic_ctrl_grad_name(arena, xs->args[k]);
    if (!nm) {
      st = oom(err);
      break;
    }
    const ic_vardesc *d = ic_program_find_var(p, gblk, nm);
    bool own = !d || (!d->persistable && (d->block == gblk || (fblk >= 0 && d->block == fblk)));
    if (own && !ns_add(&loc, nm)) st = oom(err);
  }
  if (!st && fwd) {
    g.fblk = ic_ctrl_sub_block(p, fwd, err);
    if (g.fblk < 0) st = err->code;
    else st = walk_reads(&g, gblk, err);
  }
  if (!st) {
    out->n_local = loc.n;
    out->n_saved = saved.n;
    out->local = ic_arena_calloc(arena, loc.n + 1, sizeof *out->local);
    out->saved = ic_arena_calloc(arena, saved.n + 1, sizeof *out->saved);
    bool *as = ic_arena_calloc(arena, saved.n + 1, sizeof *as);
    if (!out->local || !out->saved || !as) {
      st = oom(err);
    } else {
      if (loc.n) memcpy(out->local, loc.v, loc.n * sizeof *loc.v);
      if (saved.n) {
        memcpy(out->saved, saved.v, saved.n * sizeof *saved.v);
        memcpy(as, g.at_start, saved.n * sizeof *as);
      }
      out->at_start = as;
    }
  }
  ic_strmap_free(&loc.seen);
  ic_strmap_free(&saved.seen);
  ic_strmap_free(&seen);
  free(loc.v);
  free(saved.v);
  free(g.at_start);
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
  const ic_strmap *force_local; /* grad blocks: step-scope names local wherever declared */
  ic_err *err;
} sbuild;

static uint32_t sub_index(void *ctx, const ic_op *op, const char *name) {
  sbuild *s = ctx;
  (void)op;
  uintptr_t k = (uintptr_t)ic_strmap_get(&s->index, name);
  if (k) return (uint32_t)(k - 1);
  const ic_vardesc *d = ic_program_find_var(s->plan->prog, s->block, name);
  uint32_t outer = NONE;
  if ((!d || d->block != s->block || d->persistable) &&
      !(s->force_local && ic_strmap_get(s->force_local, name))) {
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

typedef struct gradspec gradspec;
static ic_status build_sub(ic_plan *plan, int block, ic_parent_index pidx, void *pctx,
                           const gradspec *g, ic_subplan **out, ic_err *err);

/* Training: what a sub-plan keeps and binds (see ic_subplan). */
typedef struct gradspec {
  ic_ctrl_kind kind;
  const ic_op *op;                /* the control-flow op */
  const ic_ctrl_grad_names *gn;   /* NULL: a forward with no grad op */
  ic_strmap force_local;          /* grad: saved and local names; recurrent: its links */
  ic_strmap keep;                 /* never in a release list: forward saved, grad local,
                                     recurrent states and outputs (read after the step) */
  const ic_rnn_spec *rnn;         /* recurrent */
} gradspec;

ic_status ic_ctrl_build(ic_plan *plan, ic_instr *in, ic_parent_index index_of, void *ctx,
                        ic_err *err) {
  /* On a device plan the op and its sub-blocks run on the host (placement put copies around
   * it: analysis/place.c), so the sub-plan is a host plan in either case. */
  int blk = ic_ctrl_sub_block(plan->prog, in->op, err);
  if (blk < 0) return err->code;
  ic_outer_io io;
  ic_status st = ic_ctrl_outer_io(plan->prog, in->op, plan->arena, &io, err);
  if (st) return st;
  /* The data slots widened: while's X (input 0), conditional_block's Input (input 1),
   * while_grad's Out@GRAD (input 2), conditional_block_grad's Input (input 1); output 0. */
  ic_ctrl_kind kind = ic_ctrl_kind_of(in->op);
  size_t data_in = kind == IC_CTRL_WHILE ? 0 : kind == IC_CTRL_WHILE_GRAD ? 2
                   : kind == IC_CTRL_RECURRENT || kind == IC_CTRL_RECURRENT_GRAD ? 2 /* parameters */
                   : 1;
  ic_islot *ins = (ic_islot *)in->in, *outs = (ic_islot *)in->out;
  if ((st = widen(plan->arena, &ins[data_in], io.n_reads, io.reads, in->op, index_of, ctx, err)) ||
      (st = widen(plan->arena, &outs[0], io.n_writes, io.writes, in->op, index_of, ctx, err))) {
    return st;
  }
  gradspec g = {.kind = kind, .op = in->op};
  ic_ctrl_grad_names gn;
  ic_strmap_init(&g.force_local);
  ic_strmap_init(&g.keep);
  bool grad = kind == IC_CTRL_WHILE_GRAD || kind == IC_CTRL_COND_GRAD ||
              kind == IC_CTRL_RECURRENT_GRAD;
  const ic_op *other = grad ? ic_ctrl_find_fwd(plan->prog, in->op) : ic_ctrl_find_grad(plan->prog, in->op);
  ic_rnn_spec rs;
  if (kind == IC_CTRL_RECURRENT || kind == IC_CTRL_RECURRENT_GRAD) {
    st = ic_ctrl_rnn_spec(plan->prog, in->op, &rs, err);
    g.rnn = &rs;
  }
  if (!st && kind == IC_CTRL_RECURRENT_GRAD && !other) {
    char where[160];
    st = ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: no recurrent op writes its step_scopes "
                    "'%s' before it", ic_op_where(in->op, where, sizeof where),
                    ic_ctrl_steps_name(in->op) ? ic_ctrl_steps_name(in->op) : "(none)");
  }
  if (!st && kind == IC_CTRL_RECURRENT) {
    st = rnn_local_names(&rs, &g.force_local, err);
    for (size_t k = 0; !st && k < rs.n_states + rs.n_out; k++) {
      const char *nm = k < rs.n_states ? rs.st[k] : rs.out[k - rs.n_states];
      if (!ic_strmap_put(&g.keep, nm, (void *)1)) st = oom(err);
    }
  }
  if (!st && (grad || other)) {
    st = ic_ctrl_grad_names_of(plan->prog, grad ? other : in->op, grad ? in->op : other,
                               plan->arena, &gn, err);
    g.gn = &gn;
    for (size_t k = 0; !st && k < gn.n_saved + gn.n_local; k++) {
      const char *nm = k < gn.n_saved ? gn.saved[k] : gn.local[k - gn.n_saved];
      bool saved = k < gn.n_saved;
      if ((grad && !ic_strmap_put(&g.force_local, nm, (void *)1)) ||
          (grad != saved && !ic_strmap_put(&g.keep, nm, (void *)1))) {
        st = oom(err);
      }
    }
  }
  ic_subplan *sp = NULL;
  if (!st) st = build_sub(plan, blk, index_of, ctx, &g, &sp, err);
  ic_strmap_free(&g.force_local);
  ic_strmap_free(&g.keep);
  if (st) return st;
  in->sub = sp;
  return IC_OK;
}

/* The index of the block's own variable `name` (UINT32_MAX: not in the table, or outer). */
static uint32_t own_index(const sbuild *s, const char *name) {
  uintptr_t k = name ? (uintptr_t)ic_strmap_get(&s->index, name) : 0;
  return k && s->outer[k - 1] == NONE ? (uint32_t)(k - 1) : NONE;
}

/* Whether an output slot names a variable at position k (not @EMPTY@, not past its end). */
static bool writes(const ic_slot *sl, uint32_t k) {
  return sl && k < sl->n && strcmp(sl->args[k], "@EMPTY@") != 0;
}

/* recurrent_grad's links (see ic_subplan). */
static ic_status rnn_grad_fields(sbuild *s, const gradspec *g, ic_err *err) {
  ic_subplan *sp = s->sp;
  ic_arena *a = s->plan->arena;
  const ic_rnn_spec *r = g->rnn;
  const ic_slot *og = ic_op_input(g->op, "outputs@GRAD"), *pm = ic_op_input(g->op, "parameters");
  uint32_t n_og = og ? (uint32_t)og->n : 0, n_pm = pm ? (uint32_t)pm->n : 0;
  uint32_t ns = (uint32_t)r->n_states, ni = (uint32_t)r->n_in;
  uint32_t *vog = ic_arena_calloc(a, n_og + 1, sizeof *vog);
  uint32_t *vxg = ic_arena_calloc(a, ni + 1, sizeof *vxg);
  uint32_t *vex = ic_arena_calloc(a, ns + 1, sizeof *vex);
  uint32_t *vst = ic_arena_calloc(a, ns + 1, sizeof *vst);
  uint32_t *vso = ic_arena_calloc(a, ns + 1, sizeof *vso);
  uint32_t *vpg = ic_arena_calloc(a, n_pm + 1, sizeof *vpg);
  bool *wsg = ic_arena_calloc(a, ns + 1, sizeof *wsg);
  if (!vog || !vxg || !vex || !vst || !vso || !vpg || !wsg) return oom(err);
  /* The gradients the op writes out: a slot shorter than its forward list or naming
   * @EMPTY@ leaves that one unwritten, decided here rather than per step. */
  const ic_slot *xg = ic_op_output(g->op, "inputs@GRAD");
  const ic_slot *sg = ic_op_output(g->op, "initial_states@GRAD");
  const ic_slot *pg = ic_op_output(g->op, "parameters@GRAD");
  for (uint32_t i = 0; i < n_og; i++) {
    vog[i] = strcmp(og->args[i], "@EMPTY@") == 0 ? NONE : own_index(s, og->args[i]);
  }
  for (uint32_t k = 0; k < ni; k++) {
    vxg[k] = writes(xg, k) ? own_index(s, ic_ctrl_grad_name(a, r->in[k])) : NONE;
  }
  for (uint32_t k = 0; k < ns; k++) {
    vex[k] = own_index(s, ic_ctrl_grad_name(a, r->ex[k]));
    const char *nm = ic_ctrl_grad_name(a, r->st[k]);
    if (!nm) return oom(err);
    vst[k] = own_index(s, nm);
    vso[k] = NONE;
    wsg[k] = writes(sg, k);
    if (vst[k] != NONE && ic_program_find_var(s->plan->prog, g->op->block, nm)) {
      /* declared outside: the parent's variable (the analysis made it an outer read) */
      if ((vso[k] = s->parent_index(s->parent_ctx, g->op, nm)) == NONE) return oom(err);
    }
  }
  for (uint32_t j = 0; j < n_pm; j++) {
    vpg[j] = writes(pg, j) ? own_index(s, ic_ctrl_grad_name(a, pm->args[j])) : NONE;
  }
  sp->rnn_reverse = r->reverse;
  sp->n_rnn_in = ni;
  sp->n_rnn_states = ns;
  sp->n_rnn_out = n_og;
  sp->rg_og = vog;
  sp->rg_xg = vxg;
  sp->rg_exg = vex;
  sp->rg_stg = vst;
  sp->rg_stg_outer = vso;
  sp->rg_sg_out = wsg;
  sp->n_rg_pg = n_pm;
  sp->rg_pg = vpg;
  return IC_OK;
}

/* The training fields of sp (after its instructions are built). */
static ic_status build_grad_fields(sbuild *s, const gradspec *g, ic_err *err) {
  ic_subplan *sp = s->sp;
  ic_arena *a = s->plan->arena;
  sp->kind = g->kind;
  if (g->rnn && g->kind == IC_CTRL_RECURRENT) {
    const ic_rnn_spec *r = g->rnn;
    uint32_t *v[4];
    size_t n[4] = {r->n_in, r->n_states, r->n_states, r->n_out};
    const char *const *nm[4] = {r->in, r->ex, r->st, r->out};
    for (int j = 0; j < 4; j++) {
      if (!(v[j] = ic_arena_calloc(a, n[j] + 1, sizeof *v[j]))) return oom(err);
      for (size_t k = 0; k < n[j]; k++) {
        /* in the table already unless no op of the block names it */
        if ((v[j][k] = sub_index(s, g->op, nm[j][k])) == NONE) return oom(err);
      }
    }
    sp->rnn_reverse = r->reverse;
    sp->n_rnn_in = (uint32_t)r->n_in;
    sp->n_rnn_states = (uint32_t)r->n_states;
    sp->n_rnn_out = (uint32_t)r->n_out;
    sp->rnn_in = v[0];
    sp->rnn_ex = v[1];
    sp->rnn_st = v[2];
    sp->rnn_out = v[3];
  }
  if (!g->gn) return IC_OK;
  bool grad = g->kind == IC_CTRL_WHILE_GRAD || g->kind == IC_CTRL_COND_GRAD ||
              g->kind == IC_CTRL_RECURRENT_GRAD;
  uint32_t n = (uint32_t)g->gn->n_saved;
  uint32_t *saved = ic_arena_calloc(a, n + 1, sizeof *saved);
  bool *at_start = ic_arena_calloc(a, n + 1, sizeof *at_start);
  if (!saved || !at_start) return oom(err);
  for (uint32_t j = 0; j < n; j++) {
    /* in the table already unless no op of the block names it */
    if ((saved[j] = sub_index(s, g->op, g->gn->saved[j])) == NONE) return oom(err);
    at_start[j] = g->gn->at_start[j];
  }
  sp->saves = !grad;
  sp->n_saved = n;
  sp->saved = saved;
  sp->at_start = at_start;
  if (!grad) return IC_OK;
  if (g->kind == IC_CTRL_RECURRENT_GRAD) return rnn_grad_fields(s, g, err);
  bool is_while = g->kind == IC_CTRL_WHILE_GRAD;
  const ic_slot *ogs = is_while ? ic_op_input(g->op, "Out@GRAD") : NULL;
  const ic_attr *inside = is_while ? ic_op_attr(g->op, "original_output_grad") : NULL;
  uint32_t n_og = ogs ? (uint32_t)ogs->n : 0;
  uint32_t *og = ic_arena_calloc(a, n_og + 1, sizeof *og);
  const ic_vardesc **ogd = ic_arena_calloc(a, n_og + 1, sizeof *ogd);
  if (!og || !ogd) return oom(err);
  for (uint32_t i = 0; i < n_og; i++) {
    ogd[i] = ic_program_find_var(s->plan->prog, g->op->block, ogs->args[i]);
    const char *nm = inside && inside->type == IC_ATTR_STRINGS && i < inside->n ? inside->strings[i] : NULL;
    uintptr_t k = nm ? (uintptr_t)ic_strmap_get(&s->index, nm) : 0;
    og[i] = k ? (uint32_t)(k - 1) : NONE;
  }
  const ic_slot *xs = ic_op_input(g->op, is_while ? "X" : "Input");
  const ic_slot *xg = ic_op_output(g->op, is_while ? "X@GRAD" : "Input@GRAD");
  uint32_t n_xg = xg ? (uint32_t)xg->n : 0;
  uint32_t *xi = ic_arena_calloc(a, n_xg + 1, sizeof *xi);
  bool *carried = ic_arena_calloc(a, n_xg + 1, sizeof *carried);
  bool *empty = ic_arena_calloc(a, n_xg + 1, sizeof *empty);
  if (!xi || !carried || !empty) return oom(err);
  for (uint32_t i = 0; i < n_xg; i++) {
    xi[i] = NONE;
    empty[i] = strcmp(xg->args[i], "@EMPTY@") == 0 || !xs || i >= xs->n;
    if (empty[i]) continue;
    const char *nm = ic_ctrl_grad_name(a, xs->args[i]);
    if (!nm) return oom(err);
    uintptr_t k = (uintptr_t)ic_strmap_get(&s->index, nm);
    /* only the block's own: an outer variable of that name is not its gradient */
    xi[i] = k && s->outer[k - 1] == NONE ? (uint32_t)(k - 1) : NONE;
    carried[i] = slot_has(ogs, xg->args[i]);
  }
  sp->n_og = n_og;
  sp->og_inside = og;
  sp->og_desc = ogd;
  sp->n_xg = n_xg;
  sp->xg_inside = xi;
  sp->xg_carried = carried;
  sp->xg_empty = empty;
  return IC_OK;
}

static ic_status build_sub(ic_plan *plan, int block, ic_parent_index pidx, void *pctx,
                           const gradspec *g, ic_subplan **out, ic_err *err) {
  const ic_block *b = &plan->prog->blocks[block];
  ic_subplan *sp = ic_arena_calloc(plan->arena, 1, sizeof *sp);
  if (!sp) return oom(err);
  sp->block = block;
  sbuild s = {.plan = plan, .sp = sp, .block = block, .parent_index = pidx, .parent_ctx = pctx,
              .force_local = g->gn || g->rnn ? &g->force_local : NULL, .err = err};
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
  if ((st = build_grad_fields(&s, g, err))) goto done;
  /* Release lists: each of the block's own variables is dropped after the last instruction
   * of an iteration that uses it, except what a forward keeps for its grad op and a grad
   * block's inside gradients (ctrlexec.c handles both after the iteration). */
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
      if (last[v] == i && s.outer[v] == NONE && !ic_strmap_get(&g->keep, s.names[v])) tmp[n++] = v;
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
