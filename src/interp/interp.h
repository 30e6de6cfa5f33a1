/* Private interfaces of the executors. */
#ifndef IC_INTERP_INTERP_H
#define IC_INTERP_INTERP_H

#include <stdbool.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "icore/icore.h"
#include "kernels/kernel.h"
#include "program/program.h"
#include "scope/scope.h"

/* The ops one run executes, in order: block 0 of the program plus the feed and fetch ops
 * added for requested names the program's own feed/fetch ops do not cover. */
typedef struct ic_opseq {
  size_t n_ops;
  const ic_op **ops;          /* program ops and synthetic ops (in arena) */
  const char *feed_holder;    /* name of the feed list variable */
  const char *fetch_holder;   /* name of the fetch list variable */
  size_t n_feed_cols;         /* columns of the feed list */
  size_t *feed_col;           /* requested feed i -> its column */
  size_t n_fetch_cols;        /* columns of the fetch list */
  size_t *fetch_col;          /* requested fetch i -> its column */
  ic_arena *arena;            /* synthetic ops and the arrays above */
} ic_opseq;

ic_status ic_opseq_build(const ic_program *p, size_t n_feeds, const char *const *feed_names,
                         size_t n_fetches, const char *const *fetch_names, ic_opseq *out,
                         ic_err *err);
void ic_opseq_free(ic_opseq *s);

/* Check each feed tensor against its VarDesc (dtype, rank, dims where not -1). */
ic_status ic_check_feeds(const ic_program *p, size_t n_feeds, const char *const *feed_names,
                         const ic_tensor *const *feeds, ic_err *err);

/* Fill the feed holder in `scope` (created there) with the feeds by column and size the fetch
 * holder; both become list variables of `scope`. */
ic_status ic_bind_feeds(const ic_opseq *seq, ic_scope *scope, size_t n_feeds,
                        const ic_tensor *const *feeds, ic_err *err);
/* Copy the fetched tensors out of the fetch holder into new caller-owned tensors. */
ic_status ic_collect_fetches(const ic_opseq *seq, ic_scope *scope, size_t n_fetches,
                             const char *const *fetch_names, ic_tensor **fetches, ic_err *err);

/* Check every float output of an op for NaN and Inf. */
ic_status ic_check_finite(const ic_kctx *c, ic_err *err);

/* One run of the uncompiled (op-by-op, reference) executor. */
typedef struct ic_uncompiled_args {
  const ic_program *prog;
  ic_scope *scope;          /* the caller's (parameters); may be NULL */
  size_t n_feeds;
  const char *const *feed_names;
  const ic_tensor *const *feeds;
  size_t n_fetches;
  const char *const *fetch_names;
  ic_tensor **fetches;
  const ic_options *opt;
  ic_kenv *env;
} ic_uncompiled_args;

ic_status ic_run_uncompiled(const ic_uncompiled_args *a, ic_err *err);

#endif
