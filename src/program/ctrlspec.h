/* What a control-flow op's attributes and slots say, read from the program alone (no plan):
 * its sub_block, and a recurrent op's links. Used at load (program.c's checks), by the
 * analysis (analysis/ctrlflow.c) and by the uncompiled executor. */
#ifndef IC_PROGRAM_CTRLSPEC_H
#define IC_PROGRAM_CTRLSPEC_H

#include "program/program.h"

/* The sub_block attribute of a control-flow op, checked (range, parent chain); -1 with err. */
int ic_ctrl_sub_block(const ic_program *p, const ic_op *op, ic_err *err);

/* A recurrent op's links (kernels/cpu/recurrent.c), checked: a valid sub_block, at least one
 * `inputs` variable; with has_states (absent: whether ex_states has names) ex_states, states
 * and initial_states of one length, every ex_states and states name a variable declared in
 * the step block. The arrays point into the op. For recurrent_grad (the same attributes and
 * inputs, `outputs` an input) block is its grad block, whose forward block is the step
 * block. */
typedef struct ic_rnn_spec {
  int block;
  bool has_states, reverse;
  size_t n_in, n_states, n_out;
  const char *const *in, *const *init, *const *ex, *const *st, *const *out;
} ic_rnn_spec;
ic_status ic_ctrl_rnn_spec(const ic_program *p, const ic_op *op, ic_rnn_spec *s, ic_err *err);

#endif
