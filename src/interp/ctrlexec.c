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
                          .op_key = ((uint64_t)(uint32_t)in->op->block << 32) | (uint32_t)in->op->index,
                          .state = &s->kstate[i]};
  }
  return IC_OK;
}

static void subrun_free(subrun *s) {
  if (s->locals) {
    for (uint32_t v = 0; v < s->sp->n_vars; v++) {
      ic_variable_clear(&s->locals[v]);
      free(s->locals[v].list);
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

ic_status ic_exec_ctrl(const ic_instr *in, ic_variable *const *pvarp, const ic_ctrl_env *ce,
                       ic_err *err) {
  const ic_subplan *sp = in->sub;
  bool is_while = in->def == &ic_op_while; /* no string compare on the run path */
  subrun s;
  ic_status st = subrun_init(&s, sp, pvarp, ce->env, err);
  if (st) {
    subrun_free(&s);
    return st;
  }
  if (is_while) {
    const ic_variable *cv = pvarp[in->in[1].vars[0]];
    const char *cname = cv->name ? cv->name : "Condition";
    for (uint64_t it = 0;; it++) {
      bool go;
      if ((st = read_flag(&cv->tensor, "Condition", cname, &go, err)) || !go) break;
      for (uint32_t i = 0; i < sp->n_instrs && !st; i++) st = exec_one(&s, i, ce, err);
      for (uint32_t v = 0; v < sp->n_vars; v++) {
        if (sp->outer[v] == NONE) ic_variable_clear(&s.locals[v]);
      }
      if (st) {
        ic_err_prefix(err, "iteration %llu of block %d: ", (unsigned long long)it, sp->block);
        break;
      }
    }
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
    if (st && go) ic_err_prefix(err, "block %d: ", sp->block);
  }
  subrun_free(&s);
  return st;
}
