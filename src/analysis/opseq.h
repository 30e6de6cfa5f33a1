/* Which ops a run executes: block 0 of the program plus the feed and fetch ops added for
 * requested names that the program's own feed/fetch ops do not cover. */
#ifndef IC_ANALYSIS_OPSEQ_H
#define IC_ANALYSIS_OPSEQ_H

#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "program/program.h"

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

#endif
