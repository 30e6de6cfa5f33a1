/* Running control-flow instructions of a compiled plan: a while runs its sub-plan once per
 * iteration, a conditional_block once or not at all. The sub-plan was analyzed once with
 * the parent plan (analysis/ctrlflow.c); here the only work is binding its variable table to
 * the parent's variables by index (once per execution of the op, not per iteration), then per
 * instruction what exec_host does: infer, allocate, kernel, release. The sub-block runs in
 * the thread that took the control-flow instruction, its ops in program order; the outer
 * DAG already orders the instruction against everything its sub-block reads and writes.
 *
 * Scopes: the block's own variables live in a table local to this execution (Paddle's child
 * scope); they are released after their last use in an iteration and cleared at the end of
 * every iteration (Paddle's step scopes are dropped the same way in inference), so memory
 * stays flat however many iterations run. Variables of outer blocks are the parent's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "interp/ctrl.h"

#define NONE UINT32_MAX

typedef struct subrun {
  const ic_subplan *sp;
  ic_variable *locals;
  ic_variable **varp;
  ic_kctx *ctx;
  void **kstate;
  ic_arena *arena;
} subrun;

static ic_status oom(ic_err *err) { return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

static ic_status subrun_init(subrun *s, const ic_subplan *sp, ic_variable *const *pvarp,
                             ic_kenv *env, ic_err *err) {
  memset(s, 0, sizeof *s);
  s->sp = sp;
  if (!(s->arena = ic_arena_create())) return oom(err);
  s->locals = ic_arena_calloc(s->arena, sp->n_vars + 1, sizeof *s->locals);
  s->varp = ic_arena_calloc(s->arena, sp->n_vars + 1, sizeof *s->varp);
  s->ctx = ic_arena_calloc(s->arena, sp->n_instrs + 1, sizeof *s->ctx);
  s->kstate = ic_arena_calloc(s->arena, sp->n_instrs + 1, sizeof *s->kstate);
  if (!s->locals || !s->varp || !s->ctx || !s->kstate) return oom(err);
  for (uint32_t v = 0; v < sp->n_vars; v++) {
    ic_tensor_init(&s->locals[v].tensor);
    s->varp[v] = sp->outer[v] == NONE ? &s->locals[v] : pvarp[sp->outer[v]];
  }
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    const ic_instr *in = &sp->instrs[i];
    ic_kslot *ks = ic_arena_calloc(s->arena, in->def->n_inputs + in->def->n_outputs + 1, sizeof *ks);
    if (!ks) return oom(err);
    for (size_t k = 0; k < in->def->n_inputs + in->def->n_outputs; k++) {
      const ic_islot *is = k < in->def->n_inputs ? &in->in[k] : &in->out[k - in->def->n_inputs];
      ic_tensor **t = ic_arena_calloc(s->arena, is->n + 1, sizeof *t);
      ic_variable **vv = ic_arena_calloc(s->arena, is->n + 1, sizeof *vv);
      const char **nm = ic_arena_calloc(s->arena, is->n + 1, sizeof *nm);
      if (!t || !vv || !nm) return oom(err);
      for (uint32_t j = 0; j < is->n; j++) {
        vv[j] = s->varp[is->vars[j]];
        t[j] = &vv[j]->tensor;
        nm[j] = sp->names[is->vars[j]];
      }
      ks[k] = (ic_kslot){.n = is->n, .t = t, .vars = vv, .names = nm};
    }
    s->ctx[i] = (ic_kctx){.def = in->def, .op = in->op, .attrs = in->attrs, .in = ks,
                          .out = ks + in->def->n_inputs, .env = env,
                          .op_key = ic_op_key(in->op, i),
                          .state = &s->kstate[i]};
  }
  return IC_OK;
}

static void subrun_free(subrun *s) {
  if (s->locals) {
    for (uint32_t v = 0; v < s->sp->n_vars; v++) {
      ic_variable_release(&s->locals[v]);
    }
  }
  for (uint32_t i = 0; s->kstate && i < s->sp->n_instrs; i++) {
    if (s->kstate[i] && s->sp->instrs[i].def->free_state) {
      s->sp->instrs[i].def->free_state(s->kstate[i]);
    }
  }
  ic_arena_destroy(s->arena);
}

static ic_status exec_one(subrun *s, uint32_t i, const ic_ctrl_env *ce, ic_err *err) {
  const ic_instr *in = &s->sp->instrs[i];
  const ic_opdef *def = in->def;
  ic_kctx *c = &s->ctx[i];
  c->err = err;
  ic_status st;
  if (def->flags & IC_OP_SUBBLOCK) {
    st = ic_exec_ctrl(in, s->varp, ce, err);
  } else {
    const ic_kslot *shared_in = c->in;
    ic_tensor *snap = NULL;
    ic_kslot *snap_slots = NULL;
    size_t n_snap = 0;
    if (in->alias) {
      /* It writes a variable it reads: read the old tensors through snapshots. */
      size_t n = 0;
      for (size_t k = 0; k < def->n_inputs; k++) n += c->in[k].n;
      snap = calloc(n + 1, sizeof *snap);
      snap_slots = calloc(def->n_inputs + 1, sizeof *snap_slots);
      ic_tensor **tp = calloc(n + 1, sizeof *tp);
      if (!snap || !snap_slots || !tp) {
        free(snap);
        free(snap_slots);
        free(tp);
        return oom(err);
      }
      for (size_t k = 0; k < def->n_inputs; k++) {
        snap_slots[k] = c->in[k];
        snap_slots[k].t = tp + n_snap;
        for (size_t j = 0; j < c->in[k].n; j++) {
          snap[n_snap] = *c->in[k].t[j];
          /* its own copy of the LoD: infer may replace the output's, which is this one */
          if (snap[n_snap].lod && !(snap[n_snap].lod = ic_lod_clone(snap[n_snap].lod))) {
            for (size_t q = 0; q < n_snap; q++) {
              ic_buffer_release(snap[q].buf);
              ic_lod_free(snap[q].lod);
            }
            free(snap);
            free(snap_slots);
            free(tp);
            c->in = shared_in;
            return oom(err);
          }
          if (snap[n_snap].buf) ic_buffer_retain(snap[n_snap].buf);
          tp[n_snap] = &snap[n_snap];
          n_snap++;
        }
      }
      c->in = snap_slots;
    }
    for (size_t k = 0; k < def->n_outputs; k++) {
      if (!(def->outputs[k].flags & IC_SLOT_NO_BUFFER)) continue;
      for (size_t j = 0; j < c->out[k].n; j++) ic_tensor_reset(c->out[k].t[j]);
    }
    st = ic_check_layouts(c, err);
    /* Inputs that must hold data (the uncompiled executor checks the same). */
    for (size_t k = 0; !st && k < def->n_inputs; k++) {
      if (def->inputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_IGNORED | IC_SLOT_MAYBE_EMPTY |
                                  IC_SLOT_ARRAY)) {
        continue;
      }
      for (size_t j = 0; !st && j < c->in[k].n; j++) {
        if (!c->in[k].t[j]->data) {
          st = ic_err_set(err, IC_ERR_NOT_FOUND,
                          "input %s '%s' holds no data (read before any op writes it)",
                          def->inputs[k].name, c->in[k].names[j]);
        }
      }
    }
    if (!st) st = def->infer(c);
    if (!st) st = ic_share_lod(c, err);
    for (size_t k = 0; !st && k < def->n_outputs; k++) {
      if (def->outputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_SHARE | IC_SLOT_HOLDER | IC_SLOT_DYNAMIC)) {
        continue;
      }
      for (size_t j = 0; !st && j < c->out[k].n; j++) {
        st = ic_tensor_alloc(c->out[k].t[j], ce->alloc, err);
      }
    }
    if (!st) st = def->cpu(c);
    if (!st && ce->check_nan_inf) st = ic_check_finite(c, err);
    for (size_t k = 0; k < n_snap; k++) {
      ic_buffer_release(snap[k].buf);
      ic_lod_free(snap[k].lod);
    }
    if (snap_slots) free((void *)snap_slots[0].t);
    free(snap);
    free(snap_slots);
    c->in = shared_in;
  }
  if (st) {
    char where[160];
    ic_err_prefix(err, "%s: ", ic_op_where(in->op, where, sizeof where));
    return st;
  }
  for (uint32_t k = 0; k < in->n_gc; k++) ic_variable_clear(s->varp[in->gc[k]]);
  return IC_OK;
}

/* The one-element bool a while or a scalar conditional_block tests. */
static ic_status read_flag(const ic_tensor *t, const char *slot, const char *name, bool *out,
                           ic_err *err) {
  char d[96];
  if (!t->data || t->dtype != IC_BOOL || ic_tensor_numel_(t) != 1) {
    return ic_err_set(err, IC_ERR_SHAPE, "%s '%s' is %s, expected a bool tensor of one element",
                      slot, name, t->data ? ic_tensor_describe(t, d, sizeof d) : "empty");
  }
  *out = *(const uint8_t *)t->data != 0;
  return IC_OK;
}

ic_status ic_ctrl_should_run(const ic_op *op, size_t n, ic_tensor *const *cond,
                             const char *const *names, bool scalar, bool *run, ic_err *err) {
  (void)op;
  if (scalar) {
    if (n != 1) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "is_scalar_condition needs exactly one Cond variable, got %zu", n);
    }
    return read_flag(cond[0], "Cond", names[0], run, err);
  }
  *run = true;
  for (size_t k = 0; k < n; k++) {
    if (!cond[k]->data || ic_tensor_numel_(cond[k]) == 0) *run = false;
  }
  return IC_OK;
}

extern const ic_opdef ic_op_while; /* src/kernels/cpu/while.c */

bool ic_ctrl_scalar_condition(const ic_op *op) {
  const ic_attr *a = ic_op_attr(op, "is_scalar_condition");
  return a && a->i != 0;
}

static void clear_locals(subrun *s);
static const char *var_name(const ic_variable *v, const char *dflt);
static ic_status exec_while_grad(const ic_instr *in, ic_variable *const *pvarp,
                                 const ic_ctrl_env *ce, ic_err *err);
static ic_status exec_cond_grad(const ic_instr *in, ic_variable *const *pvarp,
                                const ic_ctrl_env *ce, ic_err *err);
static ic_status exec_recurrent_grad(const ic_instr *in, ic_variable *const *pvarp,
                                     const ic_ctrl_env *ce, ic_err *err);

/* A forward's kept values of iteration `it`: the inputs as it starts (start) or its own
 * variables as it ends (!start). */
static ic_status keep_iteration(subrun *s, ic_variable *steps, size_t it, bool start,
                                ic_err *err) {
  const ic_subplan *sp = s->sp;
  for (uint32_t j = 0; j < sp->n_saved; j++) {
    if (sp->at_start[j] != start) continue;
    ic_variable *v = s->varp[sp->saved[j]];
    ic_status st = ic_ctrl_keep_var(steps, sp->n_saved, it, j, v, start, sp->names[sp->saved[j]], err);
    if (st) return st;
  }
  return IC_OK;
}

/* ---- recurrent ---- */

ic_status ic_ctrl_rnn_seq_len(size_t n, ic_tensor *const *in, const char *const *names,
                              int64_t *len, ic_err *err) {
  char d[96];
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *t = in[k];
    if (!t->data || t->ndim < 1 || t->layout != IC_LAYOUT_PLAIN) {
      return ic_err_set(err, IC_ERR_SHAPE, "inputs '%s' is %s, expected a tensor of at least "
                        "one dimension (the sequence)", names[k],
                        t->data ? ic_tensor_describe(t, d, sizeof d) : "empty");
    }
    if (k == 0) {
      *len = t->dims[0];
    } else if (t->dims[0] != *len) {
      return ic_err_set(err, IC_ERR_SHAPE, "inputs '%s' is %s: its sequence length %lld "
                        "differs from %lld of inputs '%s'", names[k],
                        ic_tensor_describe(t, d, sizeof d), (long long)t->dims[0],
                        (long long)*len, names[0]);
    }
  }
  return IC_OK;
}

void ic_ctrl_rnn_slice(ic_tensor *inside, const ic_tensor *outside, int64_t t) {
  ic_tensor_share(inside, outside);
  ic_tensor_take_lod(inside, NULL);
  ic_tensor_set_meta(inside, outside->dtype, outside->ndim - 1, outside->dims + 1);
  size_t row = (size_t)ic_tensor_numel_(inside) * ic_dtype_size(outside->dtype);
  inside->data = (char *)outside->data + (size_t)t * row;
}

ic_status ic_ctrl_rnn_store(ic_tensor *outer, const ic_tensor *inner, size_t step, int64_t t,
                            int64_t len, const char *name, ic_allocator *a, ic_err *err) {
  char d1[96], d2[96];
  if (!inner->data || inner->layout != IC_LAYOUT_PLAIN || inner->ndim + 1 > IC_MAX_RANK) {
    return ic_err_set(err, IC_ERR_SHAPE, "outputs '%s' is %s after the step, expected a "
                      "plain tensor of rank below %d", name,
                      inner->data ? ic_tensor_describe(inner, d1, sizeof d1) : "empty",
                      IC_MAX_RANK);
  }
  if (step == 0) {
    int64_t dims[IC_MAX_RANK];
    dims[0] = len;
    for (int k = 0; k < inner->ndim; k++) dims[k + 1] = inner->dims[k];
    ic_tensor t0;
    ic_tensor_init(&t0);
    ic_tensor_set_meta(&t0, inner->dtype, inner->ndim + 1, dims);
    ic_status st = ic_tensor_alloc(&t0, a, err);
    if (st) return st;
    ic_tensor_reset(outer);
    *outer = t0;
  } else if (outer->dtype != inner->dtype || outer->ndim != inner->ndim + 1 ||
             !ic_dims_equal(inner->ndim, inner->dims, outer->ndim - 1, outer->dims + 1)) {
    return ic_err_set(err, IC_ERR_SHAPE, "outputs '%s' is %s in this step, but %s stacks "
                      "the first step's", name, ic_tensor_describe(inner, d1, sizeof d1),
                      ic_tensor_describe(outer, d2, sizeof d2));
  }
  size_t row = (size_t)ic_tensor_numel_(inner) * ic_dtype_size(inner->dtype);
  if (row) memcpy((char *)outer->data + (size_t)t * row, inner->data, row);
  return IC_OK;
}

ic_status ic_ctrl_rnn_state(ic_tensor *carry, const ic_tensor *state, const char *name,
                            ic_err *err) {
  if (!state->data) {
    return ic_err_set(err, IC_ERR_NOT_FOUND, "states '%s' holds no data at the end of the "
                      "step (no op of the step block writes it)", name);
  }
  ic_tensor_share(carry, state);
  ic_tensor_take_lod(carry, state->lod ? ic_lod_clone(state->lod) : NULL);
  return IC_OK;
}

/* recurrent (kernels/cpu/recurrent.c): the step block once per step, its links bound by
 * index; a step's locals are cleared when it ends, the memories carried to the next. */
static ic_status exec_recurrent(const ic_instr *in, ic_variable *const *pvarp,
                                const ic_ctrl_env *ce, ic_err *err) {
  const ic_subplan *sp = in->sub;
  uint32_t ni = sp->n_rnn_in, ns = sp->n_rnn_states, no = sp->n_rnn_out;
  ic_tensor **xs = calloc(ni + 1, sizeof *xs);
  const char **xn = calloc(ni + 1, sizeof *xn);
  ic_tensor *carry = calloc(ns + 1, sizeof *carry);
  ic_status st = !xs || !xn || !carry ? oom(err) : IC_OK;
  for (uint32_t k = 0; k < ns && carry; k++) ic_tensor_init(&carry[k]);
  for (uint32_t k = 0; !st && k < ni; k++) {
    xs[k] = &pvarp[in->in[0].vars[k]]->tensor;
    xn[k] = sp->names[sp->rnn_in[k]];
  }
  int64_t len = 0;
  if (!st) st = ic_ctrl_rnn_seq_len(ni, xs, xn, &len, err);
  for (uint32_t k = 0; !st && k < ns; k++) {
    const ic_variable *v = pvarp[in->in[1].vars[k]];
    if (!v->tensor.data) {
      st = ic_err_set(err, IC_ERR_NOT_FOUND, "initial_states '%s' holds no data",
                      var_name(v, "?"));
    } else {
      ic_tensor_share(&carry[k], &v->tensor);
    }
  }
  /* Training: step_scopes keeps what the recurrent_grad's block reads of every step. */
  ic_variable *steps = sp->saves && in->out[1].n ? pvarp[in->out[1].vars[0]] : NULL;
  if (steps) {
    ic_variable_clear(steps);
    steps->kind = IC_VK_ARRAY;
    steps->n_list = 0;
    steps->has_steps = true;
  }
  subrun s;
  bool init = false;
  if (!st) {
    init = true;
    st = subrun_init(&s, sp, pvarp, ce->env, err);
  }
  const uint64_t seed = ce->env->seed;
  for (int64_t i = 0; !st && i < len; i++) {
    int64_t t = sp->rnn_reverse ? len - 1 - i : i;
    ce->env->seed = ic_ctrl_iteration_seed(seed, (uint64_t)i);
    for (uint32_t k = 0; k < ni; k++) ic_ctrl_rnn_slice(&s.varp[sp->rnn_in[k]]->tensor, xs[k], t);
    for (uint32_t k = 0; k < ns; k++) {
      ic_tensor *ex = &s.varp[sp->rnn_ex[k]]->tensor;
      ic_tensor_share(ex, &carry[k]);
      ic_tensor_take_lod(ex, carry[k].lod ? ic_lod_clone(carry[k].lod) : NULL);
    }
    for (uint32_t k = 0; k < sp->n_instrs && !st; k++) st = exec_one(&s, k, ce, err);
    for (uint32_t k = 0; !st && k < no; k++) {
      st = ic_ctrl_rnn_store(&pvarp[in->out[0].vars[k]]->tensor, &s.varp[sp->rnn_out[k]]->tensor,
                             (size_t)i, t, len, sp->names[sp->rnn_out[k]], ce->alloc, err);
    }
    for (uint32_t k = 0; !st && k < ns; k++) {
      uint32_t v = sp->rnn_st[k];
      st = ic_ctrl_rnn_state(&carry[k], &s.varp[v]->tensor, sp->names[v], err);
    }
    if (steps && !st && !(st = keep_iteration(&s, steps, (size_t)i, false, err))) {
      steps->steps = (size_t)i + 1;
    }
    clear_locals(&s);
    if (st) ic_err_prefix(err, "step %lld of block %d: ", (long long)t, sp->block);
  }
  ce->env->seed = seed;
  if (init) subrun_free(&s);
  for (uint32_t k = 0; carry && k < ns; k++) ic_tensor_reset(&carry[k]);
  free(carry);
  free(xs);
  free(xn);
  return st;
}

ic_status ic_exec_ctrl(const ic_instr *in, ic_variable *const *pvarp, const ic_ctrl_env *ce,
                       ic_err *err) {
  const ic_subplan *sp = in->sub;
  if (sp->kind == IC_CTRL_RECURRENT) return exec_recurrent(in, pvarp, ce, err);
  if (sp->kind == IC_CTRL_RECURRENT_GRAD) return exec_recurrent_grad(in, pvarp, ce, err);
  if (sp->kind == IC_CTRL_WHILE_GRAD) return exec_while_grad(in, pvarp, ce, err);
  if (sp->kind == IC_CTRL_COND_GRAD) return exec_cond_grad(in, pvarp, ce, err);
  bool is_while = in->def == &ic_op_while; /* no string compare on the run path */
  /* Training: the StepScopes / Scope variable keeps what the grad op reads. */
  ic_variable *steps = sp->saves && in->out[1].n ? pvarp[in->out[1].vars[0]] : NULL;
  if (steps) {
    ic_variable_clear(steps);
    steps->kind = IC_VK_ARRAY;
    steps->n_list = 0;
    steps->has_steps = true;
  }
  subrun s;
  ic_status st = subrun_init(&s, sp, pvarp, ce->env, err);
  if (st) {
    subrun_free(&s);
    return st;
  }
  if (is_while) {
    const ic_variable *cv = pvarp[in->in[1].vars[0]];
    const char *cname = cv->name ? cv->name : "Condition";
    const uint64_t seed = ce->env->seed;
    for (uint64_t it = 0;; it++) {
      bool go;
      if ((st = read_flag(&cv->tensor, "Condition", cname, &go, err)) || !go) break;
      ce->env->seed = ic_ctrl_iteration_seed(seed, it);
      if (steps) st = keep_iteration(&s, steps, it, true, err);
      for (uint32_t i = 0; i < sp->n_instrs && !st; i++) st = exec_one(&s, i, ce, err);
      if (steps && !st && !(st = keep_iteration(&s, steps, it, false, err))) steps->steps = it + 1;
      clear_locals(&s);
      if (st) {
        ic_err_prefix(err, "iteration %llu of block %d: ", (unsigned long long)it, sp->block);
        break;
      }
    }
    ce->env->seed = seed;
  } else {
    size_t n = in->in[0].n;
    ic_tensor **cond = calloc(n + 1, sizeof *cond);
    const char **names = calloc(n + 1, sizeof *names);
    bool go = false;
    if (!cond || !names) st = oom(err);
    for (size_t k = 0; !st && k < n; k++) {
      cond[k] = &pvarp[in->in[0].vars[k]]->tensor;
      names[k] = pvarp[in->in[0].vars[k]]->name ? pvarp[in->in[0].vars[k]]->name : "?";
    }
    if (!st) st = ic_ctrl_should_run(in->op, n, cond, names, ic_ctrl_scalar_condition(in->op), &go, err);
    free(cond);
    free(names);
    for (uint32_t i = 0; go && i < sp->n_instrs && !st; i++) st = exec_one(&s, i, ce, err);
    if (steps && go && !st && !(st = keep_iteration(&s, steps, 0, false, err))) steps->steps = 1;
    if (st && go) ic_err_prefix(err, "block %d: ", sp->block);
  }
  subrun_free(&s);
  return st;
}

/* ---- gradients of control flow ---- */

ic_status ic_ctrl_zeros_like(ic_tensor *out, const ic_tensor *like, ic_allocator *a, ic_err *err) {
  ic_tensor t;
  ic_tensor_init(&t);
  ic_tensor_set_meta(&t, like->dtype, like->ndim, like->dims);
  ic_status st = ic_tensor_alloc(&t, a, err);
  if (st) return st;
  if (like->lod && !(t.lod = ic_lod_clone(like->lod))) {
    ic_tensor_reset(&t);
    return oom(err);
  }
  size_t bytes = (size_t)ic_tensor_numel_(&t) * ic_dtype_size(t.dtype);
  if (bytes) memset(t.data, 0, bytes);
  ic_tensor_reset(out);
  *out = t;
  return IC_OK;
}

ic_status ic_ctrl_accumulate(ic_tensor *acc, const ic_tensor *g, const char *name,
                             ic_allocator *a, ic_err *err) {
  char d1[96], d2[96];
  if (acc->dtype != g->dtype || !ic_dims_equal(acc->ndim, acc->dims, g->ndim, g->dims) ||
      (g->dtype != IC_FP32 && g->dtype != IC_FP64)) {
    return ic_err_set(err, IC_ERR_SHAPE,
                      "accumulating the gradient '%s': %s plus %s, expected equal float32 or "
                      "float64 tensors", name, ic_tensor_describe(acc, d1, sizeof d1),
                      ic_tensor_describe(g, d2, sizeof d2));
  }
  ic_tensor t;
  ic_tensor_init(&t);
  ic_tensor_set_meta(&t, g->dtype, g->ndim, g->dims);
  ic_status st = ic_tensor_alloc(&t, a, err);
  if (st) return st;
  int64_t n = ic_tensor_numel_(&t);
  if (g->dtype == IC_FP32) {
    const float *x = acc->data, *y = g->data;
    float *o = t.data;
    for (int64_t i = 0; i < n; i++) o[i] = x[i] + y[i];
  } else {
    const double *x = acc->data, *y = g->data;
    double *o = t.data;
    for (int64_t i = 0; i < n; i++) o[i] = x[i] + y[i];
  }
  t.lod = acc->lod;
  acc->lod = NULL;
  ic_tensor_reset(acc);
  *acc = t;
  return IC_OK;
}

ic_status ic_ctrl_no_steps(const char *slot, const char *name, ic_err *err) {
  return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                    "%s '%s' holds nothing its forward op kept: the forward while / "
                    "conditional_block ran with is_test set, or did not run before this op",
                    slot, name);
}

ic_status ic_ctrl_keep_var(ic_variable *steps, size_t m, size_t it, size_t j, ic_variable *v,
                           bool start, const char *name, ic_err *err) {
  if (v->kind == IC_VK_LIST || (start && v->kind != IC_VK_TENSOR)) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "keeping '%s' for the grad op: it is %s",
                      name, v->kind == IC_VK_LIST ? "a feed/fetch list"
                                                 : "a tensor array, expected a dense input");
  }
  ic_variable *slot = ic_variable_kept_at(steps, it * m + j);
  if (!slot) return oom(err);
  if (!start) {
    /* whole: a tensor array with its elements, a nested StepScopes / Scope with its steps */
    ic_variable_move(slot, v);
    return IC_OK;
  }
  /* an input as the iteration finds it: shared, the outer variable stays as it is */
  ic_variable_clear(slot);
  slot->kind = IC_VK_TENSOR;
  ic_tensor_share(&slot->tensor, &v->tensor);
  return IC_OK;
}

ic_status ic_ctrl_zeros_declared(ic_tensor *out, const ic_vardesc *d, const char *name,
                                 ic_allocator *a, ic_err *err) {
  char shape[160];
  size_t n = 0;
  bool dynamic = !d || !d->is_tensor;
  shape[0] = 0;
  for (int k = 0; d && k < d->ndim; k++) {
    dynamic |= d->dims[k] < 0;
    n += (size_t)snprintf(shape + n, n < sizeof shape ? sizeof shape - n : 0, "%s%lld",
                          k ? ", " : "", (long long)d->dims[k]);
    if (n >= sizeof shape) n = sizeof shape - 1;
  }
  if (dynamic) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "Out@GRAD '%s' was never computed and its declared shape [%s] is not "
                      "static, so it cannot be filled with zeros (Paddle's while_grad fails "
                      "the same way)", name, d ? shape : "undeclared");
  }
  ic_tensor t;
  ic_tensor_init(&t);
  ic_tensor_set_meta(&t, d->dtype, d->ndim, d->dims);
  ic_status st = ic_tensor_alloc(&t, a, err);
  if (st) return st;
  size_t bytes = (size_t)ic_tensor_numel_(&t) * ic_dtype_size(t.dtype);
  if (bytes) memset(t.data, 0, bytes);
  ic_tensor_reset(out);
  *out = t;
  return IC_OK;
}

/* Bind entry j of kept iteration k to the grad sub-plan's saved[j] (moved: each iteration's
 * values are used once, and released as soon as its backward is done). */
static ic_status bind_step(subrun *s, ic_variable *steps, size_t k, ic_err *err) {
  const ic_subplan *sp = s->sp;
  size_t m = sp->n_saved;
  for (uint32_t j = 0; j < m; j++) {
    ic_variable_move(s->varp[sp->saved[j]], &steps->kept[k * m + j]);
  }
  return IC_OK;
}

static void clear_locals(subrun *s) {
  for (uint32_t v = 0; s->locals && v < s->sp->n_vars; v++) {
    if (s->sp->outer[v] == NONE) ic_variable_clear(&s->locals[v]);
  }
}

static const char *var_name(const ic_variable *v, const char *dflt) {
  return v->name ? v->name : dflt;
}

/* while_grad (see ic_subplan and docs/DESIGN.md, "Gradients of control flow"). */
static ic_status exec_while_grad(const ic_instr *in, ic_variable *const *pvarp,
                                 const ic_ctrl_env *ce, ic_err *err) {
  const ic_subplan *sp = in->sub;
  if (!in->in[3].n) return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "StepScopes is not set");
  ic_variable *S = pvarp[in->in[3].vars[0]];
  if (!S->has_steps) return ic_ctrl_no_steps("StepScopes", var_name(S, "?"), err);
  size_t m = sp->n_saved;
  if (S->n_kept != S->steps * m) {
    return ic_err_set(err, IC_ERR_INTERNAL, "StepScopes '%s' holds %zu values for %zu "
                      "iterations of %zu", var_name(S, "?"), S->n_kept, S->steps, m);
  }
  const ic_slot *xg_names = ic_op_output(in->op, "X@GRAD");
  for (uint32_t i = 0; S->steps && i < sp->n_xg; i++) {
    if (!sp->xg_empty[i] && sp->xg_inside[i] == NONE) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "X@GRAD '%s': the grad block (block %d) "
                        "never computes the gradient of X[%u]", xg_names->args[i], sp->block, i);
    }
  }
  subrun s;
  ic_status st = subrun_init(&s, sp, pvarp, ce->env, err);
  /* zeros for an Out@GRAD nothing computed (Paddle fills it from its declared shape) */
  ic_tensor *zog = !st ? ic_arena_calloc(s.arena, sp->n_og + 1, sizeof *zog) : NULL;
  if (!st && !zog) st = oom(err);
  for (uint32_t i = 0; !st && i < sp->n_og; i++) ic_tensor_init(&zog[i]);
  for (size_t r = 0; !st && r < S->steps; r++) {
    size_t k = S->steps - 1 - r;
    st = bind_step(&s, S, k, err);
    /* Link the output gradients: the inside name shares the outer tensor. */
    for (uint32_t i = 0; !st && i < sp->n_og; i++) {
      if (sp->og_inside[i] == NONE) continue;
      const ic_variable *o = pvarp[in->in[2].vars[i]];
      const ic_tensor *og = &o->tensor;
      if (!og->data) {
        if (!zog[i].data) {
          st = ic_ctrl_zeros_declared(&zog[i], sp->og_desc[i], var_name(o, "?"), ce->alloc, err);
        }
        og = &zog[i];
      }
      if (!st) ic_tensor_share(&s.varp[sp->og_inside[i]]->tensor, og);
    }
    for (uint32_t i = 0; !st && i < sp->n_instrs; i++) st = exec_one(&s, i, ce, err);
    /* The inputs' gradients: a loop-carried one is the iteration's (the next step back links
     * it as the output gradient), the others are summed over iterations. */
    for (uint32_t i = 0; !st && i < sp->n_xg; i++) {
      if (sp->xg_empty[i]) continue;
      const ic_tensor *g = &s.varp[sp->xg_inside[i]]->tensor;
      ic_variable *o = pvarp[in->out[0].vars[i]];
      if (sp->xg_carried[i]) {
        if (g->data) ic_tensor_share(&o->tensor, g);
        continue;
      }
      if (r == 0 && g->data) st = ic_ctrl_zeros_like(&o->tensor, g, ce->alloc, err);
      if (!st && g->data) st = ic_ctrl_accumulate(&o->tensor, g, xg_names->args[i], ce->alloc, err);
    }
    clear_locals(&s);
    if (st) ic_err_prefix(err, "backward of iteration %zu of block %d: ", k, sp->block);
  }
  for (uint32_t i = 0; zog && i < sp->n_og; i++) ic_tensor_reset(&zog[i]);
  subrun_free(&s);
  ic_variable_clear(S);
  return st;
}

/* conditional_block_grad. */
static ic_status exec_cond_grad(const ic_instr *in, ic_variable *const *pvarp,
                                const ic_ctrl_env *ce, ic_err *err) {
  const ic_subplan *sp = in->sub;
  size_t n = in->in[0].n;
  ic_tensor **cond = calloc(n + 1, sizeof *cond);
  const char **names = calloc(n + 1, sizeof *names);
  bool go = false;
  ic_status st = !cond || !names ? oom(err) : IC_OK;
  for (size_t k = 0; !st && k < n; k++) {
    cond[k] = &pvarp[in->in[0].vars[k]]->tensor;
    names[k] = var_name(pvarp[in->in[0].vars[k]], "?");
  }
  if (!st) st = ic_ctrl_should_run(in->op, n, cond, names, ic_ctrl_scalar_condition(in->op), &go, err);
  free(cond);
  free(names);
  if (st) return st;
  ic_variable *S = in->in[4].n ? pvarp[in->in[4].vars[0]] : NULL;
  subrun s;
  bool ran = false;
  if (go) {
    if (!S || !S->has_steps || S->steps != 1) {
      return S && S->has_steps ? ic_err_set(err, IC_ERR_INVALID_PROGRAM, "Cond holds, but the "
                                            "forward conditional_block did not run its block")
                               : ic_ctrl_no_steps("Scope", S ? var_name(S, "?") : "?", err);
    }
    if (S->n_kept != sp->n_saved) {
      return ic_err_set(err, IC_ERR_INTERNAL, "Scope '%s' holds %zu values, expected %u",
                        var_name(S, "?"), S->n_kept, sp->n_saved);
    }
    st = subrun_init(&s, sp, pvarp, ce->env, err);
    ran = true;
    if (!st) st = bind_step(&s, S, 0, err);
    for (uint32_t i = 0; !st && i < sp->n_instrs; i++) st = exec_one(&s, i, ce, err);
    if (st) ic_err_prefix(err, "block %d: ", sp->block);
  }
  /* Input@GRAD[i]: the block's gradient of Input[i]; zeros like Input[i] where there is none
   * (or the block did not run) and Input[i] holds elements; else left as it is. */
  for (uint32_t i = 0; !st && i < sp->n_xg; i++) {
    if (sp->xg_empty[i]) continue;
    ic_variable *o = pvarp[in->out[0].vars[i]];
    const ic_tensor *g = ran && sp->xg_inside[i] != NONE ? &s.varp[sp->xg_inside[i]]->tensor : NULL;
    const ic_tensor *x = &pvarp[in->in[1].vars[i]]->tensor;
    if (g && g->data) {
      ic_tensor_share(&o->tensor, g);
      ic_tensor_take_lod(&o->tensor, g->lod ? ic_lod_clone(g->lod) : NULL);
    } else if (x->data && ic_tensor_numel_(x) > 0) {
      st = ic_ctrl_zeros_like(&o->tensor, x, ce->alloc, err);
    }
  }
  if (ran) {
    clear_locals(&s);
    subrun_free(&s);
  }
  if (S && S->has_steps) ic_variable_clear(S); /* never a variable it did not keep */
  return st;
}

/* ---- recurrent_grad, shared by the executors ---- */

ic_status ic_ctrl_rnn_grad_steps(const ic_variable *S, const char *name, size_t m, int64_t len,
                                 ic_err *err) {
  if (!S || !S->has_steps) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "step_scopes '%s' holds nothing its forward "
                      "recurrent kept: the recurrent ran with is_train false, or did not run "
                      "before this op", name);
  }
  if ((int64_t)S->steps != len) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "step_scopes '%s' holds %zu steps, but the "
                      "sequence of `inputs` has %lld (the forward recurrent ran on other "
                      "inputs)", name, S->steps, (long long)len);
  }
  if (S->n_kept != S->steps * m) {
    return ic_err_set(err, IC_ERR_INTERNAL, "step_scopes '%s' holds %zu values for %zu steps "
                      "of %zu", name, S->n_kept, S->steps, m);
  }
  return IC_OK;
}

ic_status ic_ctrl_rnn_og_slice(ic_tensor *inside, const ic_tensor *og, int64_t t, int64_t len,
                               const char *name, ic_err *err) {
  char d[96];
  if (og->ndim < 1 || og->dims[0] != len || og->layout != IC_LAYOUT_PLAIN) {
    return ic_err_set(err, IC_ERR_SHAPE, "outputs@GRAD '%s' is %s, expected the sequence of "
                      "%lld steps of its output", name, ic_tensor_describe(og, d, sizeof d),
                      (long long)len);
  }
  ic_ctrl_rnn_slice(inside, og, t);
  return IC_OK;
}

ic_status ic_ctrl_rnn_grad_store(ic_tensor *outer, bool *first, const ic_tensor *inner,
                                 int64_t t, int64_t len, const char *name, ic_allocator *a,
                                 ic_err *err) {
  if (*first) {
    int64_t dims[IC_MAX_RANK];
    if (inner->ndim + 1 > IC_MAX_RANK || inner->layout != IC_LAYOUT_PLAIN) {
      return ic_err_set(err, IC_ERR_SHAPE, "inputs@GRAD '%s': the step's gradient has rank %d, "
                        "expected a plain tensor of rank below %d", name, inner->ndim, IC_MAX_RANK);
    }
    dims[0] = len;
    for (int k = 0; k < inner->ndim; k++) dims[k + 1] = inner->dims[k];
    ic_tensor t0;
    ic_tensor_init(&t0);
    ic_tensor_set_meta(&t0, inner->dtype, inner->ndim + 1, dims);
    ic_status st = ic_tensor_alloc(&t0, a, err);
    if (st) return st;
    size_t bytes = (size_t)ic_tensor_numel_(&t0) * ic_dtype_size(t0.dtype);
    if (bytes) memset(t0.data, 0, bytes);
    ic_tensor_reset(outer);
    *outer = t0;
    *first = false;
  }
  char d1[96], d2[96];
  if (inner->dtype != outer->dtype || inner->layout != IC_LAYOUT_PLAIN ||
      !ic_dims_equal(inner->ndim, inner->dims, outer->ndim - 1, outer->dims + 1)) {
    return ic_err_set(err, IC_ERR_SHAPE, "inputs@GRAD '%s': the step's gradient is %s, but %s "
                      "stacks another shape", name, ic_tensor_describe(inner, d1, sizeof d1),
                      ic_tensor_describe(outer, d2, sizeof d2));
  }
  size_t row = (size_t)ic_tensor_numel_(inner) * ic_dtype_size(inner->dtype);
  if (row) memcpy((char *)outer->data + (size_t)t * row, inner->data, row);
  return IC_OK;
}

/* recurrent_grad (kernels/cpu/recurrent_grad.c gives the semantics). */
static ic_status exec_recurrent_grad(const ic_instr *in, ic_variable *const *pvarp,
                                     const ic_ctrl_env *ce, ic_err *err) {
  const ic_subplan *sp = in->sub;
  uint32_t ni = sp->n_rnn_in, ns = sp->n_rnn_states, no = sp->n_rnn_out, np = sp->n_rg_pg;
  if (!in->in[5].n) return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "step_scopes is not set");
  ic_variable *S = pvarp[in->in[5].vars[0]];
  ic_tensor **xs = calloc(ni + 1, sizeof *xs);
  const char **xn = calloc(ni + 1, sizeof *xn);
  ic_tensor *carry = calloc(ns + 1, sizeof *carry);
  bool *first = calloc(ni + np + 1, sizeof *first);
  ic_status st = !xs || !xn || !carry || !first ? oom(err) : IC_OK;
  for (uint32_t k = 0; carry && k < ns; k++) ic_tensor_init(&carry[k]);
  for (uint32_t k = 0; !st && k < ni; k++) {
    xs[k] = &pvarp[in->in[0].vars[k]]->tensor;
    xn[k] = var_name(pvarp[in->in[0].vars[k]], "?");
  }
  for (uint32_t k = 0; first && k < ni + np; k++) first[k] = true;
  int64_t len = 0;
  if (!st) st = ic_ctrl_rnn_seq_len(ni, xs, xn, &len, err);
  if (!st) st = ic_ctrl_rnn_grad_steps(S, var_name(S, "?"), sp->n_saved, len, err);
  subrun s;
  bool init = false;
  if (!st) {
    init = true;
    st = subrun_init(&s, sp, pvarp, ce->env, err);
  }
  for (int64_t r = 0; !st && r < len; r++) {
    size_t k = (size_t)(len - 1 - r);          /* the forward step it differentiates */
    int64_t t = sp->rnn_reverse ? r : len - 1 - r; /* its place in the sequence */
    st = bind_step(&s, S, k, err);
    for (uint32_t i = 0; !st && i < no; i++) {
      const ic_tensor *og = &pvarp[in->in[4].vars[i]]->tensor;
      if (sp->rg_og[i] == NONE || !og->data) continue;
      st = ic_ctrl_rnn_og_slice(&s.varp[sp->rg_og[i]]->tensor, og, t, len,
                                  var_name(pvarp[in->in[4].vars[i]], "?"), err);
    }
    for (uint32_t j = 0; !st && j < ns; j++) {
      if (sp->rg_stg[j] == NONE) continue;
      const ic_tensor *from = r ? &carry[j]
                              : sp->rg_stg_outer[j] != NONE ? &pvarp[sp->rg_stg_outer[j]]->tensor
                                                            : NULL;
      if (from && from->data) ic_tensor_share(&s.varp[sp->rg_stg[j]]->tensor, from);
    }
    for (uint32_t i = 0; !st && i < sp->n_instrs; i++) st = exec_one(&s, i, ce, err);
    /* the parameters' gradients, summed over the steps */
    for (uint32_t j = 0; !st && j < np; j++) {
      if (sp->rg_pg[j] == NONE) continue; /* includes the gradients not written out */
      const ic_tensor *g = &s.varp[sp->rg_pg[j]]->tensor;
      if (!g->data) continue;
      ic_tensor *o = &pvarp[in->out[2].vars[j]]->tensor;
      if (first[ni + j]) st = ic_ctrl_zeros_like(o, g, ce->alloc, err);
      first[ni + j] = false;
      if (!st) st = ic_ctrl_accumulate(o, g, var_name(pvarp[in->out[2].vars[j]], "?"),
                                          ce->alloc, err);
    }
    /* the inputs' gradients, step t of each */
    for (uint32_t j = 0; !st && j < ni; j++) {
      if (sp->rg_xg[j] == NONE) continue; /* includes the gradients not written out */
      const ic_tensor *g = &s.varp[sp->rg_xg[j]]->tensor;
      if (!g->data) continue;
      st = ic_ctrl_rnn_grad_store(&pvarp[in->out[0].vars[j]]->tensor, &first[j], g, t, len,
                                  var_name(pvarp[in->out[0].vars[j]], "?"), ce->alloc, err);
    }
    /* the memories' gradients: carried to the step before, the initial states' at the end */
    for (uint32_t j = 0; !st && j < ns; j++) {
      const ic_tensor *g = sp->rg_exg[j] != NONE ? &s.varp[sp->rg_exg[j]]->tensor : NULL;
      ic_tensor_reset(&carry[j]);
      if (g && g->data) ic_tensor_share(&carry[j], g);
      if (r == len - 1 && g && g->data && sp->rg_sg_out[j]) {
        ic_tensor_share(&pvarp[in->out[1].vars[j]]->tensor, g);
      }
    }
    clear_locals(&s);
    if (st) ic_err_prefix(err, "backward of step %lld of block %d: ", (long long)t, sp->block);
  }
  if (init) subrun_free(&s);
  for (uint32_t k = 0; carry && k < ns; k++) ic_tensor_reset(&carry[k]);
  if (S->has_steps) ic_variable_clear(S);
  free(carry);
  free(xs);
  free(xn);
  free(first);
  return st;
}
