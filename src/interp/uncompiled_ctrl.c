/* The uncompiled executor's control flow (uncompiled.c runs everything else): a while or
 * conditional_block runs its sub-block op by op in a child scope per iteration (Paddle's step
 * scopes), fluid's StaticRNN (recurrent) its step block once per step of the sequence, and
 * their grad ops the grad block in a child scope per kept forward iteration or step, in
 * reverse. Everything is resolved by name on every run, as in the rest of the reference; the
 * compiled executor's interp/ctrlexec.c gives the semantics. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "interp/ctrl.h"
#include "interp/uncompiled.h"

static bool slot_has_name(const ic_slot *s, const char *name) {
  for (size_t k = 0; s && k < s->n; k++) {
    if (strcmp(s->args[k], name) == 0) return true;
  }
  return false;
}

static ic_status run_ctrl_grad(urun *u, const ic_op *op, ic_err *err);

/* The variable a grad op's X@GRAD / Input@GRAD output names: the one in its block's own scope
 * (a grad op nested in an outer grad block writes the outer block's inside gradients, local
 * to that block's step scope wherever declared), else as ic_urun_out_var. */
static ic_variable *grad_out_var(urun *u, const ic_op *op, const char *name) {
  ic_variable *v = ic_urun_step_var(u, u->bscope[op->block], name);
  return v ? v : ic_urun_out_var(u, op, name);
}

/* A while or conditional_block: its sub-block op by op, in a child scope per iteration that is
 * dropped afterwards (its temporaries freed; in training, what the grad op reads is first
 * moved into StepScopes / Scope). */

static ic_status run_recurrent(urun *u, const ic_op *op, ic_err *err);
static ic_status run_recurrent_grad(urun *u, const ic_op *op, ic_err *err);

ic_status ic_urun_ctrl(urun *u, const ic_op *op, ic_err *err) {
  ic_ctrl_kind kind = ic_ctrl_kind_of(op);
  if (kind == IC_CTRL_RECURRENT_GRAD) return run_recurrent_grad(u, op, err);
  if (kind == IC_CTRL_WHILE_GRAD || kind == IC_CTRL_COND_GRAD) return run_ctrl_grad(u, op, err);
  if (kind == IC_CTRL_RECURRENT) return run_recurrent(u, op, err);
  int blk = ic_ctrl_sub_block(u->a->prog, op, err);
  if (blk < 0) return err->code;
  const ic_block *b = &u->a->prog->blocks[blk];
  ic_scope *cur = u->bscope[op->block];
  ic_status st = IC_OK;
  bool is_while = kind == IC_CTRL_WHILE;
  /* Training: keep in StepScopes / Scope what the grad op's block reads. */
  const ic_op *grad = ic_ctrl_find_grad(u->a->prog, op);
  ic_ctrl_grad_names gn = {0};
  ic_variable *steps = NULL;
  if (grad) {
    if ((st = ic_ctrl_grad_names_of(u->a->prog, op, grad, u->arena, &gn, err))) return st;
    if (!(steps = ic_urun_out_var(u, op, ic_ctrl_steps_name(op)))) {
      return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    ic_variable_clear(steps);
    steps->kind = IC_VK_ARRAY;
    steps->n_list = 0;
    steps->has_steps = true;
  }
  const uint64_t seed = u->a->env->seed;
  for (uint64_t it = 0;; it++) {
    bool go = false;
    if (is_while) {
      u->a->env->seed = ic_ctrl_iteration_seed(seed, it);
      const char *cname = ic_op_input(op, "Condition")->args[0];
      ic_variable *cv = ic_scope_find(cur, cname);
      if (!cv || cv->kind != IC_VK_TENSOR) {
        return ic_err_set(err, IC_ERR_NOT_FOUND, "Condition '%s' has not been set", cname);
      }
      char d[96];
      const ic_tensor *t = &cv->tensor;
      if (!t->data || t->dtype != IC_BOOL || ic_tensor_numel_(t) != 1) {
        return ic_err_set(err, IC_ERR_SHAPE,
                          "Condition '%s' is %s, expected a bool tensor of one element", cname,
                          t->data ? ic_tensor_describe(t, d, sizeof d) : "empty");
      }
      go = *(const uint8_t *)t->data != 0;
    } else {
      if (it > 0) break;
      const ic_slot *cs = ic_op_input(op, "Cond");
      size_t n = cs ? cs->n : 0;
      ic_tensor **cond = ic_arena_calloc(u->arena, n + 1, sizeof *cond);
      if (!cond) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      for (size_t k = 0; k < n; k++) {
        ic_variable *cv = ic_scope_find(cur, cs->args[k]);
        if (!cv || cv->kind != IC_VK_TENSOR) {
          return ic_err_set(err, IC_ERR_NOT_FOUND, "Cond '%s' has not been set", cs->args[k]);
        }
        cond[k] = &cv->tensor;
      }
      if ((st = ic_ctrl_should_run(op, n, cond, cs ? cs->args : NULL,
                                   ic_ctrl_scalar_condition(op), &go, err))) {
        return st;
      }
    }
    if (!go) break;
    ic_variable none;
    memset(&none, 0, sizeof none);
    ic_tensor_init(&none.tensor);
    for (size_t j = 0; steps && j < gn.n_saved && !st; j++) {
      if (!gn.at_start[j]) continue;
      ic_variable *v = ic_scope_find(cur, gn.saved[j]);
      st = ic_ctrl_keep_var(steps, gn.n_saved, it, j, v && v->kind == IC_VK_TENSOR ? v : &none,
                            true, gn.saved[j], err);
    }
    if (st) return st;
    ic_scope *child;
    if (ic_scope_create(cur, &child)) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    u->bscope[blk] = child;
    for (size_t i = 0; i < b->n_ops && !st; i++) st = ic_urun_op(u, i, &b->ops[i], err);
    for (size_t j = 0; steps && j < gn.n_saved && !st; j++) {
      if (gn.at_start[j]) continue;
      /* moved whole: a nested forward's StepScopes / Scope goes with its steps */
      ic_variable *v = ic_strmap_get(&child->vars, gn.saved[j]);
      st = ic_ctrl_keep_var(steps, gn.n_saved, it, j, v ? v : &none, false, gn.saved[j], err);
    }
    if (steps && !st) steps->steps = it + 1;
    u->bscope[blk] = NULL;
    ic_scope_destroy(child);
    if (st) {
      u->a->env->seed = seed;
      if (is_while) ic_err_prefix(err, "iteration %llu of block %d: ", (unsigned long long)it, blk);
      else ic_err_prefix(err, "block %d: ", blk);
      return st;
    }
  }
  u->a->env->seed = seed;
  return IC_OK;
}

/* recurrent, by name (the compiled executor's exec_recurrent, interp/ctrlexec.c, gives the
 * semantics): a child scope per step holding the links (the inputs' slices, the memories,
 * and the states and outputs, created there so that the step block writes them there),
 * dropped when the step's outputs are stacked and its states carried to the next. */
static ic_status run_recurrent(urun *u, const ic_op *op, ic_err *err) {
  const ic_program *p = u->a->prog;
  ic_rnn_spec r;
  ic_status st = ic_ctrl_rnn_spec(p, op, &r, err);
  if (st) return st;
  const ic_block *b = &p->blocks[r.block];
  ic_scope *cur = u->bscope[op->block];
  ic_tensor **xs = ic_arena_calloc(u->arena, r.n_in + 1, sizeof *xs);
  ic_tensor *carry = ic_arena_calloc(u->arena, r.n_states + 1, sizeof *carry);
  ic_variable **outs = ic_arena_calloc(u->arena, r.n_out + 1, sizeof *outs);
  if (!xs || !carry || !outs) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t k = 0; k < r.n_in; k++) {
    ic_variable *v = ic_scope_find(cur, r.in[k]);
    if (!v || v->kind != IC_VK_TENSOR) {
      return ic_err_set(err, IC_ERR_NOT_FOUND, "inputs '%s' has not been set", r.in[k]);
    }
    xs[k] = &v->tensor;
  }
  for (size_t k = 0; k < r.n_out; k++) {
    if (!(outs[k] = ic_urun_out_var(u, op, r.out[k]))) {
      return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
  }
  int64_t len = 0;
  if ((st = ic_ctrl_rnn_seq_len(r.n_in, xs, r.in, &len, err))) return st;
  /* Training: step_scopes keeps what the recurrent_grad's block reads of every step. */
  const ic_op *grad = ic_ctrl_find_grad(p, op);
  ic_ctrl_grad_names gn = {0};
  ic_variable *steps = NULL;
  if (grad) {
    if ((st = ic_ctrl_grad_names_of(p, op, grad, u->arena, &gn, err))) return st;
    if (!(steps = ic_urun_out_var(u, op, ic_ctrl_steps_name(op)))) {
      return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    ic_variable_clear(steps);
    steps->kind = IC_VK_ARRAY;
    steps->n_list = 0;
    steps->has_steps = true;
  }
  ic_variable none;
  memset(&none, 0, sizeof none);
  ic_tensor_init(&none.tensor);
  for (size_t k = 0; k < r.n_states; k++) ic_tensor_init(&carry[k]);
  for (size_t k = 0; k < r.n_states && !st; k++) {
    const ic_variable *v = ic_scope_find(cur, r.init[k]);
    if (!v || v->kind != IC_VK_TENSOR || !v->tensor.data) {
      st = ic_err_set(err, IC_ERR_NOT_FOUND, "initial_states '%s' holds no data", r.init[k]);
    } else {
      ic_tensor_share(&carry[k], &v->tensor);
    }
  }
  const uint64_t seed = u->a->env->seed;
  for (int64_t i = 0; !st && i < len; i++) {
    int64_t t = r.reverse ? len - 1 - i : i;
    u->a->env->seed = ic_ctrl_iteration_seed(seed, (uint64_t)i);
    ic_scope *child;
    if (ic_scope_create(cur, &child)) {
      st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      break;
    }
    for (size_t k = 0; k < r.n_in + 2 * r.n_states + r.n_out && !st; k++) {
      const char *nm = k < r.n_in ? r.in[k]
                       : k < r.n_in + r.n_states ? r.ex[k - r.n_in]
                       : k < r.n_in + 2 * r.n_states ? r.st[k - r.n_in - r.n_states]
                       : r.out[k - r.n_in - 2 * r.n_states];
      ic_variable *v = ic_scope_var(child, nm);
      if (!v) {
        st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      } else if (k < r.n_in) {
        ic_ctrl_rnn_slice(&v->tensor, xs[k], t);
      } else if (k < r.n_in + r.n_states) {
        const ic_tensor *c = &carry[k - r.n_in];
        ic_tensor_share(&v->tensor, c);
        ic_tensor_take_lod(&v->tensor, c->lod ? ic_lod_clone(c->lod) : NULL);
      }
    }
    u->bscope[r.block] = child;
    for (size_t i2 = 0; i2 < b->n_ops && !st; i2++) st = ic_urun_op(u, i2, &b->ops[i2], err);
    u->bscope[r.block] = NULL;
    for (size_t k = 0; k < r.n_out && !st; k++) {
      const ic_variable *v = ic_strmap_get(&child->vars, r.out[k]);
      st = ic_ctrl_rnn_store(&outs[k]->tensor, &v->tensor, (size_t)i, t, len, r.out[k],
                             u->a->env->alloc, err);
    }
    for (size_t k = 0; k < r.n_states && !st; k++) {
      const ic_variable *v = ic_strmap_get(&child->vars, r.st[k]);
      st = ic_ctrl_rnn_state(&carry[k], &v->tensor, r.st[k], err);
    }
    for (size_t j = 0; steps && j < gn.n_saved && !st; j++) {
      ic_variable *v = ic_strmap_get(&child->vars, gn.saved[j]);
      st = ic_ctrl_keep_var(steps, gn.n_saved, (size_t)i, j, v ? v : &none, false, gn.saved[j], err);
    }
    if (steps && !st) steps->steps = (size_t)i + 1;
    ic_scope_destroy(child);
    if (st) ic_err_prefix(err, "step %lld of block %d: ", (long long)t, r.block);
  }
  u->a->env->seed = seed;
  for (size_t k = 0; k < r.n_states; k++) ic_tensor_reset(&carry[k]);
  return st;
}

/* recurrent_grad, by name (the compiled executor's exec_recurrent_grad, interp/ctrlexec.c, and
 * kernels/cpu/recurrent_grad.c give the semantics): a child scope per step back holding the
 * kept forward step, the linked output gradient slices, the carried memory gradients and the
 * inside gradients, whose values are then summed, stacked or carried. */
static ic_status run_recurrent_grad(urun *u, const ic_op *op, ic_err *err) {
  const ic_program *p = u->a->prog;
  ic_rnn_spec r;
  ic_status st = ic_ctrl_rnn_spec(p, op, &r, err);
  if (st) return st;
  const ic_block *b = &p->blocks[r.block];
  ic_scope *cur = u->bscope[op->block];
  const ic_op *fwd = ic_ctrl_find_fwd(p, op);
  char where[160];
  if (!fwd) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: no recurrent op writes its step_scopes "
                      "'%s' before it", ic_op_where(op, where, sizeof where),
                      ic_ctrl_steps_name(op) ? ic_ctrl_steps_name(op) : "(none)");
  }
  ic_ctrl_grad_names gn;
  if ((st = ic_ctrl_grad_names_of(p, fwd, op, u->arena, &gn, err))) return st;
  const ic_slot *og = ic_op_input(op, "outputs@GRAD"), *pm = ic_op_input(op, "parameters");
  const ic_slot *ig = ic_op_output(op, "inputs@GRAD"), *sg = ic_op_output(op, "initial_states@GRAD");
  const ic_slot *pg = ic_op_output(op, "parameters@GRAD");
  size_t n_og = og ? og->n : 0, n_pm = pm ? pm->n : 0;
  ic_tensor **xs = ic_arena_calloc(u->arena, r.n_in + 1, sizeof *xs);
  ic_tensor *carry = ic_arena_calloc(u->arena, r.n_states + 1, sizeof *carry);
  bool *first = ic_arena_calloc(u->arena, r.n_in + n_pm + 1, sizeof *first);
  const char **stg = ic_arena_calloc(u->arena, r.n_states + 1, sizeof *stg);
  if (!xs || !carry || !first || !stg) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t k = 0; k < r.n_in; k++) {
    ic_variable *v = ic_scope_find(cur, r.in[k]);
    if (!v || v->kind != IC_VK_TENSOR) {
      return ic_err_set(err, IC_ERR_NOT_FOUND, "inputs '%s' has not been set", r.in[k]);
    }
    xs[k] = &v->tensor;
  }
  for (size_t k = 0; k < r.n_in + n_pm; k++) first[k] = true;
  for (size_t k = 0; k < r.n_states; k++) {
    if (!(stg[k] = ic_ctrl_grad_name(u->arena, r.st[k]))) {
      return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
  }
  int64_t len = 0;
  if ((st = ic_ctrl_rnn_seq_len(r.n_in, xs, r.in, &len, err))) return st;
  const char *sname = ic_ctrl_steps_name(op);
  ic_variable *S = sname ? ic_scope_find(cur, sname) : NULL;
  if ((st = ic_ctrl_rnn_grad_steps(S, sname ? sname : "?", gn.n_saved, len, err))) return st;
  for (size_t k = 0; k < r.n_states; k++) ic_tensor_init(&carry[k]);
  for (int64_t i = 0; i < len && !st; i++) {
    size_t k = (size_t)(len - 1 - i);
    int64_t t = r.reverse ? i : len - 1 - i;
    ic_scope *child;
    if (ic_scope_create(cur, &child)) {
      st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      break;
    }
    for (size_t j = 0; j < gn.n_saved && !st; j++) {
      ic_variable *v = ic_scope_var(child, gn.saved[j]), *kept = &S->kept[k * gn.n_saved + j];
      if (!v) st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      else ic_variable_move(v, kept);
    }
    /* the step's own gradients; a states[k]@GRAD at the first step back is an outer one */
    for (size_t j = 0; j < gn.n_local && !st; j++) {
      bool outer_state = false;
      for (size_t q = 0; i == 0 && q < r.n_states; q++) {
        outer_state |= strcmp(stg[q], gn.local[j]) == 0 &&
                       ic_program_find_var(p, op->block, gn.local[j]) != NULL;
      }
      if (!outer_state && !ic_scope_var(child, gn.local[j])) {
        st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      }
    }
    for (size_t j = 0; j < n_og && !st; j++) {
      if (strcmp(og->args[j], "@EMPTY@") == 0) continue;
      const ic_variable *o = ic_scope_find(cur, og->args[j]);
      if (!o || o->kind != IC_VK_TENSOR || !o->tensor.data) continue;
      ic_variable *v = ic_scope_var(child, og->args[j]);
      st = v ? ic_ctrl_rnn_og_slice(&v->tensor, &o->tensor, t, len, og->args[j], err)
             : ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t j = 0; i > 0 && j < r.n_states && !st; j++) {
      if (!carry[j].data) continue;
      ic_variable *v = ic_scope_var(child, stg[j]);
      if (v) ic_tensor_share(&v->tensor, &carry[j]);
      else st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    u->bscope[r.block] = child;
    for (size_t q = 0; q < b->n_ops && !st; q++) st = ic_urun_op(u, q, &b->ops[q], err);
    u->bscope[r.block] = NULL;
    for (size_t j = 0; j < n_pm && !st; j++) {
      if (strcmp(pg->args[j], "@EMPTY@") == 0) continue;
      const char *gname = ic_ctrl_grad_name(u->arena, pm->args[j]);
      const ic_variable *gv = gname ? ic_strmap_get(&child->vars, gname) : NULL;
      if (!gv || gv->kind != IC_VK_TENSOR || !gv->tensor.data) continue;
      ic_variable *o = grad_out_var(u, op, pg->args[j]);
      if (!o) {
        st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
        break;
      }
      if (first[r.n_in + j]) st = ic_ctrl_zeros_like(&o->tensor, &gv->tensor, u->a->env->alloc, err);
      first[r.n_in + j] = false;
      if (!st) st = ic_ctrl_accumulate(&o->tensor, &gv->tensor, pg->args[j], u->a->env->alloc, err);
    }
    for (size_t j = 0; ig && j < r.n_in && j < ig->n && !st; j++) {
      if (strcmp(ig->args[j], "@EMPTY@") == 0) continue;
      const char *gname = ic_ctrl_grad_name(u->arena, r.in[j]);
      const ic_variable *gv = gname ? ic_strmap_get(&child->vars, gname) : NULL;
      if (!gv || gv->kind != IC_VK_TENSOR || !gv->tensor.data) continue;
      ic_variable *o = grad_out_var(u, op, ig->args[j]);
      st = o ? ic_ctrl_rnn_grad_store(&o->tensor, &first[j], &gv->tensor, t, len, ig->args[j],
                                      u->a->env->alloc, err)
             : ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t j = 0; j < r.n_states && !st; j++) {
      const char *gname = ic_ctrl_grad_name(u->arena, r.ex[j]);
      const ic_variable *gv = gname ? ic_strmap_get(&child->vars, gname) : NULL;
      const ic_tensor *g = gv && gv->kind == IC_VK_TENSOR && gv->tensor.data ? &gv->tensor : NULL;
      ic_tensor_reset(&carry[j]);
      if (g) ic_tensor_share(&carry[j], g);
      if (i == len - 1 && g && sg && j < sg->n && strcmp(sg->args[j], "@EMPTY@") != 0) {
        ic_variable *o = grad_out_var(u, op, sg->args[j]);
        if (!o) st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
        else ic_tensor_share(&o->tensor, g);
      }
    }
    ic_scope_destroy(child);
    if (st) ic_err_prefix(err, "backward of step %lld of block %d: ", (long long)t, r.block);
  }
  for (size_t k = 0; k < r.n_states; k++) ic_tensor_reset(&carry[k]);
  ic_variable_clear(S);
  return st;
}

/* while_grad and conditional_block_grad, by name (the compiled executor's exec_while_grad and
 * exec_cond_grad, interp/ctrlexec.c, give the semantics): the grad block runs in a child
 * scope holding one kept forward iteration (moved out of StepScopes / Scope), the linked
 * output gradients and the inside gradients, which are then summed (while_grad), assigned
 * (a loop-carried variable, conditional_block_grad) or zero-filled into the outer ones. */
static ic_status run_ctrl_grad(urun *u, const ic_op *op, ic_err *err) {
  const ic_program *p = u->a->prog;
  bool is_while = ic_ctrl_kind_of(op) == IC_CTRL_WHILE_GRAD;
  int blk = ic_ctrl_sub_block(p, op, err);
  if (blk < 0) return err->code;
  const ic_block *b = &p->blocks[blk];
  ic_scope *cur = u->bscope[op->block];
  ic_ctrl_grad_names gn;
  ic_status st = ic_ctrl_grad_names_of(p, ic_ctrl_find_fwd(p, op), op, u->arena, &gn, err);
  if (st) return st;
  const char *sname = ic_ctrl_steps_name(op);
  ic_variable *S = sname ? ic_scope_find(cur, sname) : NULL;
  const ic_slot *xs = ic_op_input(op, is_while ? "X" : "Input");
  const ic_slot *xg = ic_op_output(op, is_while ? "X@GRAD" : "Input@GRAD");
  size_t n_xg = xg ? xg->n : 0;
  bool go = true;
  size_t n_steps = 1;
  if (!is_while) {
    const ic_slot *cs = ic_op_input(op, "Cond");
    size_t n = cs ? cs->n : 0;
    ic_tensor **cond = ic_arena_calloc(u->arena, n + 1, sizeof *cond);
    if (!cond) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t k = 0; k < n; k++) {
      ic_variable *cv = ic_scope_find(cur, cs->args[k]);
      if (!cv || cv->kind != IC_VK_TENSOR) {
        return ic_err_set(err, IC_ERR_NOT_FOUND, "Cond '%s' has not been set", cs->args[k]);
      }
      cond[k] = &cv->tensor;
    }
    if ((st = ic_ctrl_should_run(op, n, cond, cs ? cs->args : NULL, ic_ctrl_scalar_condition(op),
                                 &go, err))) {
      return st;
    }
  }
  if (go || is_while) {
    if (!S || !S->has_steps) return ic_ctrl_no_steps(is_while ? "StepScopes" : "Scope", sname ? sname : "?", err);
    if (!is_while && S->steps != 1) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "Cond holds, but the forward conditional_block did not run its block");
    }
    n_steps = S->steps;
    if (S->n_kept != n_steps * gn.n_saved) {
      return ic_err_set(err, IC_ERR_INTERNAL, "%s '%s' holds %zu values for %zu iterations of %zu",
                        is_while ? "StepScopes" : "Scope", sname, S->n_kept, n_steps, gn.n_saved);
    }
  }
  /* The outputs exist (unset when a while ran no iteration), as the compiled plan's do. */
  for (size_t i = 0; i < n_xg; i++) {
    if (strcmp(xg->args[i], "@EMPTY@") != 0 && !grad_out_var(u, op, xg->args[i])) {
      return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
  }
  const ic_slot *ogs = is_while ? ic_op_input(op, "Out@GRAD") : NULL;
  const ic_attr *og_in = is_while ? ic_op_attr(op, "original_output_grad") : NULL;
  /* zeros for an Out@GRAD nothing computed (Paddle fills it from its declared shape) */
  ic_tensor *zog = ic_arena_calloc(u->arena, (ogs ? ogs->n : 0) + 1, sizeof *zog);
  if (!zog) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; ogs && i < ogs->n; i++) ic_tensor_init(&zog[i]);
  for (size_t r = 0; go && r < n_steps && !st; r++) {
    size_t k = n_steps - 1 - r;
    ic_scope *child;
    if (ic_scope_create(cur, &child)) {
      st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      break;
    }
    for (size_t j = 0; j < gn.n_saved && !st; j++) {
      ic_variable *v = ic_scope_var(child, gn.saved[j]), *kept = &S->kept[k * gn.n_saved + j];
      if (!v) st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      else ic_variable_move(v, kept);
    }
    for (size_t i = 0; ogs && og_in && og_in->type == IC_ATTR_STRINGS && i < ogs->n &&
                       i < og_in->n && !st; i++) {
      const ic_variable *o = ic_scope_find(cur, ogs->args[i]);
      const ic_tensor *og = o && o->kind == IC_VK_TENSOR ? &o->tensor : NULL;
      if (!og || !og->data) {
        if (!zog[i].data) {
          st = ic_ctrl_zeros_declared(&zog[i], ic_program_find_var(p, op->block, ogs->args[i]),
                                      ogs->args[i], u->a->env->alloc, err);
        }
        og = &zog[i];
      }
      ic_variable *v = st ? NULL : ic_scope_var(child, og_in->strings[i]);
      if (!st && !v) st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      else if (!st) ic_tensor_share(&v->tensor, og);
    }
    for (size_t i = 0; i < gn.n_local && !st; i++) {
      if (!ic_scope_var(child, gn.local[i])) st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    u->bscope[blk] = child;
    for (size_t i = 0; i < b->n_ops && !st; i++) st = ic_urun_op(u, i, &b->ops[i], err);
    u->bscope[blk] = NULL;
    for (size_t i = 0; i < n_xg && !st; i++) {
      if (strcmp(xg->args[i], "@EMPTY@") == 0 || !xs || i >= xs->n) continue;
      const char *gname = ic_ctrl_grad_name(u->arena, xs->args[i]);
      const ic_variable *gv = gname ? ic_strmap_get(&child->vars, gname) : NULL;
      const ic_tensor *g = gv && gv->kind == IC_VK_TENSOR ? &gv->tensor : NULL;
      ic_variable *o = grad_out_var(u, op, xg->args[i]);
      if (!o) {
        st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
        break;
      }
      if (!is_while) {
        const ic_variable *x = ic_scope_find(cur, xs->args[i]);
        if (g && g->data) {
          ic_tensor_share(&o->tensor, g);
          ic_tensor_take_lod(&o->tensor, g->lod ? ic_lod_clone(g->lod) : NULL);
        } else if (x && x->kind == IC_VK_TENSOR && x->tensor.data && ic_tensor_numel_(&x->tensor) > 0) {
          st = ic_ctrl_zeros_like(&o->tensor, &x->tensor, u->a->env->alloc, err);
        }
        continue;
      }
      if (!gv) {
        st = ic_err_set(err, IC_ERR_INVALID_PROGRAM, "X@GRAD '%s': the grad block (block %d) "
                        "never computes the gradient of X[%zu]", xg->args[i], blk, i);
        break;
      }
      if (slot_has_name(ogs, xg->args[i])) {
        if (g && g->data) ic_tensor_share(&o->tensor, g);
        continue;
      }
      if (r == 0 && g && g->data) st = ic_ctrl_zeros_like(&o->tensor, g, u->a->env->alloc, err);
      if (!st && g && g->data) st = ic_ctrl_accumulate(&o->tensor, g, xg->args[i], u->a->env->alloc, err);
    }
    ic_scope_destroy(child);
    if (st && is_while) ic_err_prefix(err, "backward of iteration %zu of block %d: ", k, blk);
    else if (st) ic_err_prefix(err, "block %d: ", blk);
  }
  /* The block did not run: zeros like each Input that holds elements. */
  for (size_t i = 0; !is_while && !go && i < n_xg && !st; i++) {
    if (strcmp(xg->args[i], "@EMPTY@") == 0 || !xs || i >= xs->n) continue;
    const ic_variable *x = ic_scope_find(cur, xs->args[i]);
    if (!x || x->kind != IC_VK_TENSOR || !x->tensor.data || ic_tensor_numel_(&x->tensor) == 0) continue;
    ic_variable *o = grad_out_var(u, op, xg->args[i]);
    st = o ? ic_ctrl_zeros_like(&o->tensor, &x->tensor, u->a->env->alloc, err)
           : ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t i = 0; ogs && i < ogs->n; i++) ic_tensor_reset(&zog[i]);
  if (S && S->has_steps) ic_variable_clear(S); /* never a variable it did not keep */
  return st;
}
