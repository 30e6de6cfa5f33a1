/* Control flow: sub-blocks (while, conditional_block) analyzed once, like block 0.
 *
 * A control-flow op's sub-block becomes an ic_subplan cached in its parent plan: kernels
 * chosen and attributes parsed once, every variable an index into the sub-plan's own table,
 * where a variable declared outside the sub-block is an index into the parent's table
 * (resolved by index at run time, never by name), and a release list per instruction for
 * the block's own temporaries. */
#ifndef IC_ANALYSIS_CTRLFLOW_H
#define IC_ANALYSIS_CTRLFLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/err.h"
#include "program/ctrlspec.h"
#include "program/program.h"

struct ic_instr;
struct ic_plan;

/* Names of the variables declared outside block `blk` that blk or its nested blocks read
 * (reads) and write (writes), each once, in first-use order. Arrays in arena. */
typedef struct ic_outer_io {
  size_t n_reads, n_writes;
  const char **reads, **writes;
} ic_outer_io;

/* For the control-flow op `op` (its sub-block and the nested ones). For a grad op
 * (while_grad, conditional_block_grad) the names its grad block finds in the forward's step
 * scope (ic_ctrl_grad_names: saved and local) are not outer. */
ic_status ic_ctrl_outer_io(const ic_program *p, const ic_op *op, ic_arena *arena,
                           ic_outer_io *out, ic_err *err);

/* ---- gradients of control flow (docs/DESIGN.md, "Gradients of control flow") ---- */

/* The kinds of control-flow op. */
typedef enum ic_ctrl_kind {
  IC_CTRL_NONE = 0,
  IC_CTRL_WHILE,
  IC_CTRL_COND,       /* conditional_block, conditional_block_infer */
  IC_CTRL_WHILE_GRAD,
  IC_CTRL_COND_GRAD,  /* conditional_block_grad */
  IC_CTRL_RECURRENT,  /* recurrent (fluid's StaticRNN) */
  IC_CTRL_RECURRENT_GRAD
} ic_ctrl_kind;
ic_ctrl_kind ic_ctrl_kind_of(const ic_op *op);

/* The name of a forward op's StepScopes/Scope/step_scopes output, or a grad op's
 * StepScopes/Scope/step_scopes input (NULL if none). */
const char *ic_ctrl_steps_name(const ic_op *op);
/* The grad op of the forward `fwd` (a while_grad / conditional_block_grad / recurrent_grad
 * reading fwd's StepScopes / Scope / step_scopes) in the same block after it, or, for a forward nested in a
 * differentiated body, in a grad block of that body (forward_block_idx fwd's block); NULL if
 * none, and for a while with is_test set or a recurrent with is_train false (they keep no
 * steps, as Paddle's). */
const ic_op *ic_ctrl_find_grad(const ic_program *p, const ic_op *fwd);
/* The forward op whose StepScopes / Scope the grad op reads (in its block before it, or in
 * its block's forward block), or NULL. */
const ic_op *ic_ctrl_find_fwd(const ic_program *p, const ic_op *grad);

/* What a grad op's block finds in the step scope of one forward iteration (Paddle's step
 * scope holds the body's variables as the iteration left them, a while's inputs as the
 * iteration found them, the linked output gradients and the grad block's own variables):
 *  - saved: the names the grad block (or a nested block) reads that the forward keeps per
 *    iteration, in a fixed order shared by the forward's and the grad's sub-plans. A name
 *    declared in the forward block (not persistable) is kept as the iteration leaves it; a
 *    while's X input (a dense tensor, not persistable, not read and written by one op of the
 *    body: Paddle's copied inputs) as the iteration finds it (at_start).
 *  - local: names the grad block keeps to itself wherever they are declared: the inside
 *    output gradients (while_grad's original_output_grad, which Paddle links into the step
 *    scope) and the inside gradients of the inputs (X[i]@GRAD / Input[i]@GRAD where
 *    X@GRAD[i] / Input@GRAD[i] is not @EMPTY@) that the grad block or its forward block
 *    declares; one declared only further out is that outer variable, as in Paddle's scopes.
 * `fwd` may be NULL (no saved names then). Arrays in arena. */
typedef struct ic_ctrl_grad_names {
  size_t n_saved;
  const char **saved;
  const bool *at_start;
  size_t n_local;
  const char **local;
} ic_ctrl_grad_names;
ic_status ic_ctrl_grad_names_of(const ic_program *p, const ic_op *fwd, const ic_op *grad,
                                ic_arena *arena, ic_ctrl_grad_names *out, ic_err *err);

/* The inside gradient name of input `x` (x + "@GRAD") in arena, or NULL. */
const char *ic_ctrl_grad_name(ic_arena *arena, const char *x);



typedef struct ic_subplan {
  int block;
  uint32_t n_vars;
  const char **names;        /* per variable */
  const uint32_t *outer;     /* per variable: its index in the parent's table, or UINT32_MAX
                                for the block's own variables */
  uint32_t n_instrs;
  struct ic_instr *instrs;   /* in and out index this table; gc lists the block's own
                                variables an instruction uses last (released per iteration);
                                a nested control-flow op has its own sub */
  ic_ctrl_kind kind;
  /* Training. A forward with a grad op in the plan keeps, per iteration, saved[j] (an index
   * in this table; never in a release list) in its StepScopes/Scope variable: at the
   * iteration's start where at_start[j], else as the iteration leaves it. A grad sub-plan
   * binds saved[j] (a local of this table) to entry j of one kept iteration. */
  bool saves;                /* forward: keeps steps for a grad op */
  uint32_t n_saved;
  const uint32_t *saved;
  const bool *at_start;
  /* Grad sub-plans: per Out@GRAD entry i (while_grad), the local inside gradient linked to
   * it (UINT32_MAX: none); per X@GRAD / Input@GRAD entry i, the local inside gradient
   * (UINT32_MAX: @EMPTY@, or not computed by the block) and whether that output is also an
   * output gradient read (a loop-carried variable: assigned, not summed). */
  uint32_t n_og;
  const uint32_t *og_inside;
  const ic_vardesc *const *og_desc; /* per Out@GRAD entry: its declaration (for zeros when
                                       nothing computed it), or NULL */
  uint32_t n_xg;
  const uint32_t *xg_inside;
  const bool *xg_carried;
  const bool *xg_empty;      /* the output entry is @EMPTY@ (no gradient wanted) */
  /* recurrent: the step block's own variables (indexes in this table) linked per step:
   * rnn_in[k] the slice of inputs[k], rnn_ex[k] / rnn_st[k] the memories (n_rnn_states 0
   * without has_states), rnn_out[k] stacked into outputs[k]; the outer ones are the
   * instruction's inputs[k], initial_states[k] and outputs[k] (its first n_rnn_out). */
  bool rnn_reverse;
  uint32_t n_rnn_in, n_rnn_states, n_rnn_out;
  const uint32_t *rnn_in, *rnn_ex, *rnn_st, *rnn_out;
  /* recurrent_grad (kernels/cpu/recurrent_grad.c): the grad block's own variables (indexes in
   * this table, UINT32_MAX where the block never names it): rg_og[i] linked to the slice of
   * outputs@GRAD[i] (n_rnn_out entries), rg_xg[k] the inside gradient of inputs[k]
   * (n_rnn_in), rg_exg[k] / rg_stg[k] those of ex_states[k] / states[k] (n_rnn_states), and
   * rg_stg_outer[k] the parent's variable of states[k]@GRAD's name (declared outside; the
   * first step back reads it), rg_pg[j] the inside gradient of parameters[j] (n_rg_pg, the
   * op's own parameters). rg_xg and rg_pg are UINT32_MAX too where the op does not write
   * that gradient out (@EMPTY@, or a slot shorter than its forward list). */
  const uint32_t *rg_og, *rg_xg, *rg_exg, *rg_stg, *rg_stg_outer;
  const bool *rg_sg_out; /* initial_states@GRAD[k] is written (not @EMPTY@, in the slot) */
  uint32_t n_rg_pg;
  const uint32_t *rg_pg;
} ic_subplan;

/* Name -> index in a parent table (1 + index, 0 if absent). */
typedef uint32_t (*ic_parent_lookup)(const void *ctx, const char *name);

/* Widen a control-flow instruction's data slots to its sub-block's outer reads and writes
 * and build its sub-plan (recursively). `index_of` adds a name to the parent's table and
 * returns its index (UINT32_MAX when out of memory); `lookup` finds one. */
typedef uint32_t (*ic_parent_index)(void *ctx, const ic_op *op, const char *name);
ic_status ic_ctrl_build(struct ic_plan *plan, struct ic_instr *in, ic_parent_index index_of,
                        void *ctx, ic_err *err);

#endif
