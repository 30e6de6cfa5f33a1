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
#include "program/program.h"

struct ic_instr;
struct ic_plan;

/* Names of the variables declared outside block `blk` that blk or its nested blocks read
 * (reads) and write (writes), each once, in first-use order. Arrays in arena. */
typedef struct ic_outer_io {
  size_t n_reads, n_writes;
  const char **reads, **writes;
} ic_outer_io;

ic_status ic_ctrl_outer_io(const ic_program *p, int blk, ic_arena *arena, ic_outer_io *out,
                           ic_err *err);

/* The sub_block attribute of a control-flow op, checked (range, parent chain); -1 with err. */
int ic_ctrl_sub_block(const ic_program *p, const ic_op *op, ic_err *err);

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
