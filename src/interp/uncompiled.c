/* The uncompiled executor: the reference. For every run and every op, in program order, it
 * looks the kernel up by name, parses the attributes, resolves variables by name in the
 * scopes, infers shapes, allocates outputs, runs the kernel and frees the variables whose
 * last use this op was. Everything the compiled plan decides once is redone here, on
 * purpose: it is the baseline the plan is measured against and checked with. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "interp/ctrl.h"
#include "interp/interp.h"
#include "interp/uncompiled.h"

typedef struct ubind {
  ic_kslot *in, *out;
  ic_tensor *snap;     /* input snapshots when an output is also an input */
  size_t n_snap;
} ubind;

static const void *const k_mark = &k_mark; /* a non-NULL value for set-like maps */

static bool is_persistable(const urun *u, const ic_op *op, const char *name) {
  /* a control-flow op's outer variables include the persistables its sub-blocks declare */
  const ic_vardesc *v = ic_program_find_var_global(u->a->prog, op->block, name);
  return v && v->persistable;
}

/* The variable an output names outside any step scope: the scope of the (sub-)block declaring
 * it, else the op's block's. */
ic_variable *ic_urun_out_var(urun *u, const ic_op *op, const char *name) {
  const ic_vardesc *d = ic_program_find_var(u->a->prog, op->block, name);
  ic_scope *cur = u->bscope[op->block];
  return ic_scope_var(d && u->bscope[d->block] ? u->bscope[d->block] : cur, name);
}

/* name in cur or an enclosing scope below the run's own (a step scope), or NULL. */
ic_variable *ic_urun_step_var(const urun *u, const ic_scope *cur, const char *name) {
  for (const ic_scope *s = cur; s && s != u->local; s = s->parent) {
    ic_variable *v = ic_strmap_get(&s->vars, name);
    if (v) return v;
  }
  return NULL;
}

/* Resolve one slot's variables. */
static ic_status bind_slot(urun *u, const ic_op *op, const ic_opdef *def, bool out, size_t k,
                           const ic_slot *s, ic_kslot *ks, ic_err *err) {
  const ic_slotdef *sd = out ? &def->outputs[k] : &def->inputs[k];
  size_t n = s ? s->n : 0;
  ic_tensor **t = ic_arena_calloc(u->arena, n ? n : 1, sizeof *t);
  ic_variable **v = ic_arena_calloc(u->arena, n ? n : 1, sizeof *v);
  if (!t || !v) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  char where[160];
  for (size_t i = 0; i < n; i++) {
    const char *name = s->args[i];
    ic_variable *var;
    ic_scope *cur = u->bscope[op->block];
    if (out && !(sd->flags & IC_SLOT_HOLDER) && is_persistable(u, op, name)) {
      /* A persistable the run writes lives in the run's scope (whichever block writes it): a
       * shadow that starts as a share of the caller's tensor, committed at the end if
       * updated. */
      bool fresh = !ic_strmap_get(&u->local->vars, name);
      var = ic_scope_var(u->local, name);
      const ic_variable *pv = fresh && var && u->local->parent
                                  ? ic_scope_find(u->local->parent, name)
                                  : NULL;
      if (pv && pv->kind == IC_VK_TENSOR) ic_tensor_share(&var->tensor, &pv->tensor);
    } else if (out && (var = ic_urun_step_var(u, cur, name))) {
      /* Already in a step scope: a grad block's step-scope names (the forward's kept values,
       * the linked and inside gradients) stay there wherever declared, and a nested grad
       * block writes an enclosing one's (Paddle's FindVar up the scopes). */
    } else if (out) {
      /* Temporaries live in the run's scope, or the scope of the (sub-)block declaring
       * them (a child of the run's scope, never the caller's). */
      var = ic_urun_out_var(u, op, name);
    } else {
      var = ic_scope_find(cur, name);
    }
    if (!var && !out && (sd->flags & IC_SLOT_MAYBE_EMPTY)) var = ic_scope_var(cur, name);
    if (!var && !out && (sd->flags & IC_SLOT_ARRAY)) {
      /* A tensor array nobody wrote is an empty array (check_unset lets it through), as the
       * compiled executor binds it; created where a writer would create it, so that a later
       * writer and reader in this scope see one variable. */
      const ic_vardesc *d = ic_program_find_var(u->a->prog, op->block, name);
      if (d && d->type == IC_VAR_LOD_TENSOR_ARRAY) {
        var = ic_scope_var(u->bscope[d->block] ? u->bscope[d->block] : cur, name);
      }
    }
    if (!var && !out) {
      return ic_err_set(err, IC_ERR_NOT_FOUND,
                        "%s: input %s '%s' has not been set: no earlier op writes it, and it "
                        "is neither fed nor a parameter in the scope",
                        ic_op_where(op, where, sizeof where), sd->name, name);
    }
    if (!var) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    bool holder = (sd->flags & IC_SLOT_HOLDER) != 0;
    if (holder != (var->kind == IC_VK_LIST)) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: %s %s '%s' is %s, expected %s",
                        ic_op_where(op, where, sizeof where), out ? "output" : "input", sd->name,
                        name, var->kind == IC_VK_LIST ? "a feed/fetch list" : "a tensor",
                        holder ? "a feed/fetch list" : "a tensor");
    }
    v[i] = var;
    t[i] = &var->tensor;
  }
  *ks = (ic_kslot){.n = n, .t = t, .vars = v, .names = s ? s->args : NULL};
  return IC_OK;
}

/* When an op writes a variable it also reads, its inputs are read from snapshots that keep
 * the old storage and meta alive, since outputs get fresh buffers and new meta. */
static ic_status snapshot_aliased(urun *u, const ic_opdef *def, ubind *b, ic_err *err) {
  bool alias = false;
  for (size_t so = 0; so < def->n_outputs && !alias; so++) {
    for (size_t i = 0; i < b->out[so].n && !alias; i++) {
      for (size_t si = 0; si < def->n_inputs && !alias; si++) {
        for (size_t j = 0; j < b->in[si].n && !alias; j++) {
          alias = b->in[si].vars[j] == b->out[so].vars[i];
        }
      }
    }
  }
  if (!alias) return IC_OK;
  size_t n = 0;
  for (size_t si = 0; si < def->n_inputs; si++) n += b->in[si].n;
  b->snap = ic_arena_calloc(u->arena, n ? n : 1, sizeof *b->snap);
  if (!b->snap) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t si = 0; si < def->n_inputs; si++) {
    ic_tensor **t = ic_arena_calloc(u->arena, b->in[si].n ? b->in[si].n : 1, sizeof *t);
    if (!t) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t j = 0; j < b->in[si].n; j++) {
      ic_tensor *s = &b->snap[b->n_snap++];
      *s = *b->in[si].t[j];
      /* its own copy of the LoD: infer may replace the output's, which is this one */
      if (s->lod) s->lod = ic_lod_clone(s->lod);
      if (s->buf) ic_buffer_retain(s->buf);
      t[j] = s;
    }
    b->in[si].t = t;
  }
  return IC_OK;
}

static void release_snapshots(ubind *b) {
  for (size_t i = 0; i < b->n_snap; i++) {
    ic_buffer_release(b->snap[i].buf);
    ic_lod_free(b->snap[i].lod);
    b->snap[i].lod = NULL;
  }
  b->n_snap = 0;
}

/* The outer variables a control-flow op's sub-block reads and writes count as the op's own
 * uses (*found false when op is not one). */
static ic_status outer_io(urun *u, const ic_op *op, ic_outer_io *io, bool *found, ic_err *err) {
  const ic_opdef *def = ic_registry_find(op->type);
  *found = false;
  if (!def || !(def->flags & IC_OP_SUBBLOCK)) return IC_OK;
  int blk = ic_ctrl_sub_block(u->a->prog, op, err);
  if (blk < 0) return err->code;
  ic_status st = ic_ctrl_outer_io(u->a->prog, op, u->arena, io, err);
  *found = st == IC_OK;
  return st;
}

static ic_status collect_garbage(urun *u, size_t idx, const ic_op *op, ic_err *err) {
  ic_outer_io oio;
  bool ctrl;
  ic_status st = outer_io(u, op, &oio, &ctrl, err);
  if (st) return st;
  if (ctrl) {
    for (size_t k = 0; k < oio.n_reads + oio.n_writes; k++) {
      const char *name = k < oio.n_reads ? oio.reads[k] : oio.writes[k - oio.n_reads];
      if ((uintptr_t)ic_strmap_get(&u->last_use, name) != idx + 1) continue;
      if (ic_strmap_get(&u->keep, name)) continue;
      ic_variable *v = ic_strmap_get(&u->local->vars, name);
      if (v && v->kind != IC_VK_LIST) ic_variable_clear(v);
    }
  }
  for (int io = 0; io < 2; io++) {
    size_t ns = io ? op->n_outputs : op->n_inputs;
    const ic_slot *slots = io ? op->outputs : op->inputs;
    for (size_t s = 0; s < ns; s++) {
      for (size_t i = 0; i < slots[s].n; i++) {
        const char *name = slots[s].args[i];
        if ((uintptr_t)ic_strmap_get(&u->last_use, name) != idx + 1) continue;
        if (ic_strmap_get(&u->keep, name)) continue;
        ic_variable *v = ic_strmap_get(&u->local->vars, name);
        if (v && v->kind != IC_VK_LIST) ic_variable_clear(v);
      }
    }
  }
  return IC_OK;
}

ic_status ic_urun_op(urun *u, size_t idx, const ic_op *op, ic_err *err) {
  const ic_opdef *def;
  ic_status st = ic_opdef_resolve(u->a->prog, op, &def, err);
  if (st) return st;
  if (def->flags & IC_OP_SUBBLOCK) {
    char where[160];
    if ((st = ic_urun_ctrl(u, op, err))) ic_err_prefix(err, "%s: ", ic_op_where(op, where, sizeof where));
    return st;
  }
  void *attrs = calloc(1, def->attrs_size ? def->attrs_size : 1);
  const ic_slot **ins = calloc(def->n_inputs + 1, sizeof *ins);
  const ic_slot **outs = calloc(def->n_outputs + 1, sizeof *outs);
  ubind b = {0};
  b.in = ic_arena_calloc(u->arena, def->n_inputs + 1, sizeof *b.in);
  b.out = ic_arena_calloc(u->arena, def->n_outputs + 1, sizeof *b.out);
  char where[160];
  if (!attrs || !ins || !outs || !b.in || !b.out) {
    st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  if ((st = ic_opdef_parse(def, op, attrs, err))) goto done;
  if ((st = ic_opdef_match(def, op, ins, outs, err))) goto done;
  for (size_t k = 0; k < def->n_inputs && !st; k++) {
    st = bind_slot(u, op, def, false, k, ins[k], &b.in[k], err);
  }
  for (size_t k = 0; k < def->n_outputs && !st; k++) {
    st = bind_slot(u, op, def, true, k, outs[k], &b.out[k], err);
  }
  if (st) goto done;
  void *state = NULL;
  ic_kctx c = {.def = def, .op = op, .attrs = attrs, .in = b.in, .out = b.out, .err = err,
               .env = u->a->env, .state = &state,
               .op_key = ic_op_key(op, idx)};
  if ((st = ic_check_input_data(&c, err))) {
    ic_err_prefix(err, "%s: ", ic_op_where(op, where, sizeof where));
    goto done;
  }
  if ((st = snapshot_aliased(u, def, &b, err))) goto done;
  for (size_t k = 0; k < def->n_outputs; k++) {
    if (!(def->outputs[k].flags & IC_SLOT_NO_BUFFER)) continue;
    for (size_t i = 0; i < b.out[k].n; i++) ic_tensor_reset(b.out[k].t[i]);
  }
  if ((st = ic_check_layouts(&c, err)) || (st = def->infer(&c)) ||
      (st = ic_share_lod(&c, err))) {
    ic_err_prefix(err, "%s: ", ic_op_where(op, where, sizeof where));
    goto done;
  }
  /* From here on the kernel may have created state, freed below. */
  for (size_t k = 0; k < def->n_outputs && !st; k++) {
    if (def->outputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_SHARE | IC_SLOT_HOLDER | IC_SLOT_DYNAMIC)) continue;
    for (size_t i = 0; i < b.out[k].n && !st; i++) {
      st = ic_tensor_alloc(b.out[k].t[i], u->a->env->alloc, err);
    }
  }
  if (!st) {
    st = op->block == 0 && u->a->fail_at == (long)idx ? ic_err_set(err, IC_ERR_KERNEL, "injected failure")
                                    : def->cpu(&c);
  }
  if (!st && u->a->opt->check_nan_inf) st = ic_check_finite(&c, err);
  for (size_t k = 0; k < def->n_outputs && !st; k++) {
    if (!ic_output_updates(op, def, k)) continue;
    for (size_t i = 0; i < b.out[k].n && !st; i++) {
      const char *name = b.out[k].names[i];
      if (is_persistable(u, op, name) && !ic_strmap_put(&u->commit, name, (void *)k_mark)) {
        st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      }
    }
  }
  if (st) ic_err_prefix(err, "%s: ", ic_op_where(op, where, sizeof where));
  if (state && def->free_state) def->free_state(state);
done:
  release_snapshots(&b);
  free(attrs);
  free(ins);
  free(outs);
  return st;
}

/* Inputs read before any op writes them must come from the caller's scope. Checked before
 * anything runs, in program order (the order the compiled executor checks them in when it
 * binds a run), so both report the same variable with the same message. */
static ic_status check_unset(urun *u, ic_err *err) {
  ic_strmap seen; /* written by an earlier op, or checked */
  ic_strmap_init(&seen);
  ic_status st = IC_OK;
  char where[160];
  for (size_t idx = 0; idx < u->seq.n_ops && !st; idx++) {
    const ic_op *op = u->seq.ops[idx];
    const ic_opdef *def = ic_registry_find(op->type); /* found by ic_opseq_validate */
    for (size_t k = 0; def && k < def->n_inputs && !st; k++) {
      /* A branch output select_input may find empty is not an error (the branch did not run) */
      if (def->inputs[k].flags & (IC_SLOT_HOLDER | IC_SLOT_MAYBE_EMPTY)) continue;
      const ic_slot *s = ic_op_input(op, def->inputs[k].name);
      for (size_t i = 0; s && i < s->n && !st; i++) {
        const char *name = s->args[i];
        if (ic_strmap_get(&seen, name)) continue;
        if (!ic_strmap_put(&seen, name, (void *)k_mark)) {
          st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
          break;
        }
        ic_variable *v = u->a->scope ? ic_scope_find(u->a->scope, name) : NULL;
        if (v && v->kind == IC_VK_TENSOR) continue;
        /* A tensor array nobody wrote yet is an empty array (Paddle's create_array adds no
         * op), as the compiled executor's bind has it. */
        const ic_vardesc *d = ic_program_find_var(u->a->prog, op->block, name);
        if (d && d->type == IC_VAR_LOD_TENSOR_ARRAY) continue;
        st = ic_err_set(err, IC_ERR_NOT_FOUND,
                        "%s: input %s '%s' has not been set: no earlier op writes it, and it "
                        "is neither fed nor a parameter in the scope",
                        ic_op_where(op, where, sizeof where), def->inputs[k].name, name);
      }
    }
    for (size_t s = 0; s < op->n_outputs && !st; s++) {
      for (size_t i = 0; i < op->outputs[s].n; i++) {
        if (!ic_strmap_put(&seen, op->outputs[s].args[i], (void *)k_mark)) {
          st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
          break;
        }
      }
    }
  }
  ic_strmap_free(&seen);
  return st;
}

/* Per run: where each variable is used last, and which ones must never be freed. */
static ic_status plan_frees(urun *u, ic_err *err) {
  const ic_uncompiled_args *a = u->a;
  bool ok = true;
  for (size_t i = 0; i < a->n_feeds; i++) ok &= ic_strmap_put(&u->keep, a->feed_names[i], (void *)k_mark);
  for (size_t i = 0; i < a->n_fetches; i++) ok &= ic_strmap_put(&u->keep, a->fetch_names[i], (void *)k_mark);
  ok &= ic_strmap_put(&u->keep, u->seq.feed_holder, (void *)k_mark);
  ok &= ic_strmap_put(&u->keep, u->seq.fetch_holder, (void *)k_mark);
  for (size_t idx = 0; idx < u->seq.n_ops && ok; idx++) {
    const ic_op *op = u->seq.ops[idx];
    const ic_opdef *def = ic_registry_find(op->type);
    ic_outer_io oio;
    bool ctrl;
    ic_status st = outer_io(u, op, &oio, &ctrl, err);
    if (st) return st;
    if (ctrl) {
      for (size_t k = 0; k < oio.n_reads + oio.n_writes; k++) {
        const char *name = k < oio.n_reads ? oio.reads[k] : oio.writes[k - oio.n_reads];
        if (is_persistable(u, op, name)) ok &= ic_strmap_put(&u->keep, name, (void *)k_mark);
        ok &= ic_strmap_put(&u->last_use, name, (void *)(uintptr_t)(idx + 1));
      }
    }
    for (int io = 0; io < 2; io++) {
      size_t ns = io ? op->n_outputs : op->n_inputs;
      const ic_slot *slots = io ? op->outputs : op->inputs;
      for (size_t s = 0; s < ns; s++) {
        /* Inputs read for their shape only do not keep the buffer alive, unless the op reads
         * LoD (IC_OP_LOD): releasing the variable drops its LoD with the buffer. */
        bool shape_only = false;
        for (size_t k = 0; def && !io && k < def->n_inputs; k++) {
          if (strcmp(def->inputs[k].name, slots[s].name) == 0) {
            shape_only = (def->inputs[k].flags & IC_SLOT_NO_BUFFER) != 0 &&
                         !(def->flags & IC_OP_LOD);
          }
        }
        for (size_t i = 0; i < slots[s].n; i++) {
          const char *name = slots[s].args[i];
          if (is_persistable(u, op, name)) ok &= ic_strmap_put(&u->keep, name, (void *)k_mark);
          if (!shape_only || !ic_strmap_get(&u->last_use, name)) {
            ok &= ic_strmap_put(&u->last_use, name, (void *)(uintptr_t)(idx + 1));
          }
        }
      }
    }
  }
  return ok ? IC_OK : ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
}

/* Whether op updates a persistable (see ic_output_updates), itself or, for a control-flow
 * op, through any op of its sub-block (nested ones included). */
static bool op_updates_persistables(const urun *u, const ic_op *op) {
  const ic_opdef *def = ic_registry_find(op->type);
  if (!def) return false;
  if (def->flags & IC_OP_SUBBLOCK) {
    ic_err e;
    int blk = ic_ctrl_sub_block(u->a->prog, op, &e);
    const ic_block *b = blk >= 0 ? &u->a->prog->blocks[blk] : NULL;
    for (size_t i = 0; b && i < b->n_ops; i++) {
      if (op_updates_persistables(u, &b->ops[i])) return true;
    }
    return false;
  }
  for (size_t k = 0; k < def->n_outputs; k++) {
    const ic_slot *s = ic_op_output(op, def->outputs[k].name);
    if (!s || !ic_output_updates(op, def, k)) continue;
    for (size_t i = 0; i < s->n; i++) {
      if (is_persistable(u, op, s->args[i])) return true;
    }
  }
  return false;
}

/* Whether some op of the run updates a persistable. */
static bool updates_persistables(const urun *u) {
  for (size_t idx = 0; idx < u->seq.n_ops; idx++) {
    if (op_updates_persistables(u, u->seq.ops[idx])) return true;
  }
  return false;
}

/* The updated persistables, copied into system storage (empty where the run left the
 * scope's tensor as it was), for ic_commit_persistables. */
typedef struct ucommit {
  size_t n;
  const char **names;
  ic_tensor *vals;
} ucommit;

static ic_status commit_prepare(urun *u, ucommit *c, ic_err *err) {
  size_t n = u->commit.n, it = 0;
  if (!n || !u->a->scope) return IC_OK;
  c->names = calloc(n, sizeof *c->names);
  c->vals = calloc(n, sizeof *c->vals);
  if (!c->names || !c->vals) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  const char *key;
  void *val;
  while (ic_strmap_next(&u->commit, &it, &key, &val)) {
    const ic_variable *v = ic_strmap_get(&u->local->vars, key);
    const ic_variable *sv = ic_scope_find(u->a->scope, key);
    c->names[c->n] = key;
    ic_tensor_init(&c->vals[c->n++]);
    if (v && v->kind == IC_VK_TENSOR && v->tensor.buf &&
        !(sv && sv->kind == IC_VK_TENSOR && sv->tensor.buf == v->tensor.buf)) {
      ic_status st = ic_tensor_copy(&c->vals[c->n - 1], &v->tensor, NULL, err);
      if (st) return ic_err_prefix(err, "committing persistable '%s': ", key);
    }
  }
  return IC_OK;
}

ic_status ic_run_uncompiled(const ic_uncompiled_args *a, ic_err *err) {
  urun u = {.a = a};
  ic_scope *empty = NULL;
  ic_status st;
  ic_strmap_init(&u.last_use);
  ic_strmap_init(&u.keep);
  ic_strmap_init(&u.commit);
  ic_scope *locked = NULL;
  bool writer = false;
  ucommit com = {0};
  for (size_t i = 0; i < a->n_fetches; i++) a->fetches[i] = NULL;
  if ((st = ic_check_feeds(a->prog, a->n_feeds, a->feed_names, a->feeds, err))) goto done;
  if ((st = ic_opseq_build(a->prog, a->n_feeds, a->feed_names, a->n_fetches, a->fetch_names,
                           &u.seq, err))) {
    goto done;
  }
  if (a->opt->prune && (st = ic_opseq_prune(&u.seq, a->prog, a->n_fetches, err))) goto done;
  if ((st = ic_opseq_validate(&u.seq, u.a->prog, err)) || (st = check_unset(&u, err))) goto done;
  ic_scope *root = a->scope;
  if (root) {
    /* As the compiled executor: updating runs serialized per scope, the scope read under
     * its root's shared lock, the commit under its exclusive lock. */
    locked = ic_scope_root(root);
    writer = updates_persistables(&u);
    if (writer) pthread_mutex_lock(&locked->writer);
    pthread_rwlock_rdlock(&locked->lock);
  }
  if (!root && (st = ic_scope_create(NULL, &empty))) goto oom;
  if ((st = ic_scope_create(root ? root : empty, &u.local))) goto oom;
  if (!(u.arena = ic_arena_create())) goto oom;
  if (!(u.bscope = ic_arena_calloc(u.arena, a->prog->n_blocks + 1, sizeof *u.bscope))) goto oom;
  u.bscope[0] = u.local;
  ic_variable *fh = ic_scope_var(u.local, u.seq.feed_holder);
  ic_variable *th = ic_scope_var(u.local, u.seq.fetch_holder);
  if (!fh || !th) goto oom;
  if ((st = ic_fill_holders(&u.seq, fh, th, a->n_feeds, a->feeds, err))) goto done;
  if (a->opt->gc && (st = plan_frees(&u, err))) goto done;
  for (size_t i = 0; i < u.seq.n_ops; i++) {
    if ((st = ic_urun_op(&u, i, u.seq.ops[i], err))) goto done;
    if (a->opt->gc && (st = collect_garbage(&u, i, u.seq.ops[i], err))) goto done;
  }
  if ((st = commit_prepare(&u, &com, err))) goto done;
  /* Release every other variable of the run first, so that fetched temporaries move. */
  size_t it = 0;
  const char *key;
  void *val;
  while (ic_strmap_next(&u.local->vars, &it, &key, &val)) {
    if (val != th) ic_variable_clear(val);
  }
  st = ic_collect_fetches(&u.seq, th, a->env->alloc, a->n_fetches, a->fetch_names, a->fetches,
                          err);
  if (locked) pthread_rwlock_unlock(&locked->lock);
  if (!st && com.n) st = ic_commit_persistables(a->scope, com.n, com.names, com.vals, err);
  if (locked && writer) pthread_mutex_unlock(&locked->writer);
  locked = NULL;
  goto done;
oom:
  st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
done:
  if (locked) {
    pthread_rwlock_unlock(&locked->lock);
    if (writer) pthread_mutex_unlock(&locked->writer);
  }
  if (st) {
    for (size_t i = 0; i < a->n_fetches; i++) {
      ic_tensor_destroy(a->fetches[i]);
      a->fetches[i] = NULL;
    }
  }
  ic_scope_destroy(u.local);
  ic_scope_destroy(empty);
  ic_opseq_free(&u.seq);
  ic_arena_destroy(u.arena);
  ic_strmap_free(&u.last_use);
  ic_strmap_free(&u.keep);
  ic_strmap_free(&u.commit);
  for (size_t k = 0; com.vals && k < com.n; k++) ic_tensor_reset(&com.vals[k]);
  free(com.names);
  free(com.vals);
  return st;
}
