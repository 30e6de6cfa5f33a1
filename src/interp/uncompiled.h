/* The uncompiled executor's run state (uncompiled.c), shared with its control-flow part
 * (uncompiled_ctrl.c: while, conditional_block, recurrent and their grads, op by op in step
 * scopes). Internal to the interp layer. */
#ifndef IC_INTERP_UNCOMPILED_H
#define IC_INTERP_UNCOMPILED_H

#include "interp/interp.h"

typedef struct urun {
  const ic_uncompiled_args *a;
  ic_scope *local;     /* temporaries of this run; its parent is the caller's scope */
  ic_opseq seq;
  ic_arena *arena;     /* per-run binding arrays */
  ic_strmap last_use;  /* variable name -> 1 + index of the last op using its buffer */
  ic_strmap keep;      /* names never freed: persistables, feed and fetch targets, holders */
  ic_strmap commit;    /* persistables the run updated: committed to the caller's scope */
  ic_scope **bscope;   /* per block: the scope its running ops use (block 0: local); a
                          sub-block gets a child scope per iteration (Paddle's step scopes) */
} urun;

/* The variable an output names outside any step scope: the scope of the (sub-)block declaring
 * it, else the op's block's. */
ic_variable *ic_urun_out_var(urun *u, const ic_op *op, const char *name);
/* name in cur or an enclosing scope below the run's own (a step scope), or NULL. */
ic_variable *ic_urun_step_var(const urun *u, const ic_scope *cur, const char *name);
/* One op of any block, by name, as the reference runs it (ops with a sub-block through
 * ic_urun_ctrl); idx is its index in its block (block 0's: the GC's and fail_at's). */
ic_status ic_urun_op(urun *u, size_t idx, const ic_op *op, ic_err *err);
/* A control-flow op (IC_OP_SUBBLOCK): its sub-block op by op (uncompiled_ctrl.c). */
ic_status ic_urun_ctrl(urun *u, const ic_op *op, ic_err *err);

#endif
