/* Control-flow execution shared by the executors (ctrlexec.c). */
#ifndef IC_INTERP_CTRL_H
#define IC_INTERP_CTRL_H

#include "kernels/cpu/philox.h"
#include "interp/interp.h"

typedef struct ic_ctrl_env {
  ic_allocator *alloc;  /* outputs of the sub-block's kernels */
  ic_kenv *env;         /* the running thread's kernel environment */
  bool check_nan_inf;
} ic_ctrl_env;

/* The random stream of a while body's iteration `it`: iteration 0 keeps the run's seed, each
 * later one mixes in its number, so a dropout or uniform_random (seed 0) in the body draws
 * new values every iteration, as Paddle's advancing generator does; nested loops mix again.
 * Both executors use it, so they agree bitwise. */
static inline uint64_t ic_ctrl_iteration_seed(uint64_t base, uint64_t it) {
  return it ? ic_philox_mix(base ^ ic_philox_mix(it + 0xD1B54A32D192ED03ull)) : base;
}

/* Run a compiled control-flow instruction (in->sub set) whose plan's variables are bound to
 * pvarp. */
ic_status ic_exec_ctrl(const ic_instr *in, ic_variable *const *pvarp, const ic_ctrl_env *ce,
                       ic_err *err);

/* conditional_block's decision: with `scalar`, the one Cond tensor's bool; otherwise whether
 * every Cond tensor has data and at least one element. */
ic_status ic_ctrl_should_run(const ic_op *op, size_t n, ic_tensor *const *cond,
                             const char *const *names, bool scalar, bool *run, ic_err *err);
bool ic_ctrl_scalar_condition(const ic_op *op);

/* ---- recurrent, shared by the executors ---- */

/* The sequence length: the leading dimension every `inputs` tensor (plain, with data, at
 * least 1-D) shares; an error naming the one that differs. */
ic_status ic_ctrl_rnn_seq_len(size_t n, ic_tensor *const *in, const char *const *names,
                              int64_t *len, ic_err *err);
/* inside = step t of outside (a view of its storage, the leading dimension dropped). */
void ic_ctrl_rnn_slice(ic_tensor *inside, const ic_tensor *outside, int64_t t);
/* outer[t] = inner, step `step` of `len`: the first step makes outer [len] + inner's shape
 * with fresh storage; every step's inner must have data and that shape and dtype. */
ic_status ic_ctrl_rnn_store(ic_tensor *outer, const ic_tensor *inner, size_t step, int64_t t,
                            int64_t len, const char *name, ic_allocator *a, ic_err *err);
/* A memory for the next step: states[k] as a step left it, which must hold data. */
ic_status ic_ctrl_rnn_state(ic_tensor *carry, const ic_tensor *state, const char *name,
                            ic_err *err);

/* ---- recurrent_grad, shared by the executors ---- */

/* The step_scopes variable S (named `name`) holds len forward steps of m kept values each. */
ic_status ic_ctrl_rnn_grad_steps(const ic_variable *S, const char *name, size_t m, int64_t len,
                                 ic_err *err);
/* inside = step t of the output gradient og (the sequence of len steps). */
ic_status ic_ctrl_rnn_og_slice(ic_tensor *inside, const ic_tensor *og, int64_t t, int64_t len,
                               const char *name, ic_err *err);
/* outer[t] = inner; with *first (cleared here) outer becomes zeros of [len] + inner's shape. */
ic_status ic_ctrl_rnn_grad_store(ic_tensor *outer, bool *first, const ic_tensor *inner,
                                 int64_t t, int64_t len, const char *name, ic_allocator *a,
                                 ic_err *err);

/* ---- gradients of control flow, shared by the executors ---- */

/* out = zeros shaped and typed like `like` (its LoD too), in a fresh buffer. */
ic_status ic_ctrl_zeros_like(ic_tensor *out, const ic_tensor *like, ic_allocator *a, ic_err *err);
/* acc = acc + g elementwise in their float type (Paddle's sum of two gradients), in a fresh
 * buffer; dims and dtype must agree. */
ic_status ic_ctrl_accumulate(ic_tensor *acc, const ic_tensor *g, const char *name,
                             ic_allocator *a, ic_err *err);
/* The error of a grad op whose StepScopes / Scope variable holds nothing its forward kept. */
ic_status ic_ctrl_no_steps(const char *slot, const char *name, ic_err *err);
/* Keep v (named `name`, for messages) as entry `j` of iteration `it` of steps (m entries per
 * iteration): moved whole (a dense tensor, a tensor array with its elements, or a nested
 * StepScopes / Scope with its steps), or with `start` its dense tensor shared. */
ic_status ic_ctrl_keep_var(ic_variable *steps, size_t m, size_t it, size_t j, ic_variable *v,
                           bool start, const char *name, ic_err *err);
/* out = zeros of d's declared dtype and shape (while_grad's Out@GRAD that nothing computed);
 * an error naming `name` when a dim is not static. */
ic_status ic_ctrl_zeros_declared(ic_tensor *out, const ic_vardesc *d, const char *name,
                                 ic_allocator *a, ic_err *err);

#endif
