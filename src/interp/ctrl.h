/* Control-flow execution shared by the executors (ctrlexec.c). */
#ifndef IC_INTERP_CTRL_H
#define IC_INTERP_CTRL_H

#include "interp/interp.h"

typedef struct ic_ctrl_env {
  ic_allocator *alloc;  /* outputs of the sub-block's kernels */
  ic_kenv *env;         /* the running thread's kernel environment */
  bool check_nan_inf;
} ic_ctrl_env;

/* Run a compiled control-flow instruction (in->sub set) whose plan's variables are bound to
 * pvarp. */
ic_status ic_exec_ctrl(const ic_instr *in, ic_variable *const *pvarp, const ic_ctrl_env *ce,
                       ic_err *err);

/* conditional_block's decision: with `scalar`, the one Cond tensor's bool; otherwise whether
 * every Cond tensor has data and at least one element. */
ic_status ic_ctrl_should_run(const ic_op *op, size_t n, ic_tensor *const *cond,
                             const char *const *names, bool scalar, bool *run, ic_err *err);
bool ic_ctrl_scalar_condition(const ic_op *op);

#endif
