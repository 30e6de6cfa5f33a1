/* Which ops a run executes: block 0 of the program plus the feed and fetch ops added for
 * requested names that the program's own feed/fetch ops do not cover. */
#ifndef IC_ANALYSIS_OPSEQ_H
#define IC_ANALYSIS_OPSEQ_H

#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "kernels/kernel.h"
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
  /* After ic_opseq_place (NULL before: everything on the host): */
  const uint8_t *where;       /* per op: IC_WHERE_* */
  ic_kernel_fn *dev_fn;       /* per op on the device: its device kernel */
  size_t n_cached;            /* device copies of persistables, kept across runs */
  const char **cached;
  size_t n_derived;           /* constants computed from parameters (by ic_opseq_fuse's */
  const char **derived;       /* ic_fold_bn ops), kept across runs like parameters */
} ic_opseq;

/* Where an op runs. */
#define IC_WHERE_HOST 0
#define IC_WHERE_DEVICE 1
#define IC_WHERE_H2D 2
#define IC_WHERE_D2H 3

/* Inference rewrites: convolution + batch_norm / residual add / activation (and, with cpu,
 * a scalar affine after it) into one convolution (see fuse.c). Rewrites seq's ops. */
ic_status ic_opseq_fuse(ic_opseq *seq, const ic_program *p, size_t n_fetches,
                        const char *const *fetch_names, bool cpu, ic_err *err);

/* Layout pass (CPU plans, with the rewrites): mark the convolutions and pool2d ops whose
 * output only convolutions and pool2d read with ic_blocked_out, so that it stays in oneDNN's
 * blocked layout (see layout.c). Rewrites seq's ops. */
ic_status ic_opseq_layout(ic_opseq *seq, const ic_program *p, size_t n_fetches,
                          const char *const *fetch_names, ic_err *err);

/* Sort n attributes by name, as ic_op_attr's binary search needs. */
void ic_attrs_sort(ic_attr *at, size_t n);
/* A copy of op in arena a with the boolean attributes names[0..n) added, true (icore's own
 * marks: ic_blocked_out, ic_winograd, ...); NULL when out of memory. */
const ic_op *ic_op_with_flags(ic_arena *a, const ic_op *op, const char *const *names, size_t n);

/* Convolution algorithm choice (CPU plans, options.winograd): mark every conv2d with
 * ic_winograd, which lets its kernel use Winograd's algorithm where the shapes allow and
 * oneDNN measured faster (see convalgo.c, kernels/cpu/conv_dnnl.c). Rewrites seq's ops. */
ic_status ic_opseq_winograd(ic_opseq *seq, ic_err *err);

struct ic_device;

/* Place every op on the host or the device (an op runs on the device when the device has a
 * kernel for it; views follow their input), and insert memcpy_h2d / memcpy_d2h ops where a
 * value crosses places. Host values keep their names; device values are NAME@PLACE
 * ("x@cuda:0"). Values read only for their shape need no copy; values read for their
 * contents by infer (shape tensors) are always brought to the host. Rewrites seq's ops. */
ic_status ic_opseq_place(ic_opseq *seq, const ic_program *p, const struct ic_device *dev,
                         ic_err *err);

/* Look up (ic_opdef_resolve, with p's declarations), parse and match (ic_opdef_match: slots
 * and aliased outputs) every op of the sequence in order, and read the scheduling attribute
 * analysis reads: the first error a program has, before any rewrite or placement renames its
 * ops. Both executors call it
 * before anything else, so both refuse a bad program with the same message, even when an
 * earlier op would fail at run time. */
/* Keep only the ops the requested fetches depend on and those with effects past their
 * outputs (prune.c says which); before validation, so ops after the fetched values need
 * no kernel. */
ic_status ic_opseq_prune(ic_opseq *s, const ic_program *p, size_t n_fetches, ic_err *err);

ic_status ic_opseq_validate(const ic_opseq *seq, const ic_program *p, ic_err *err);

ic_status ic_opseq_build(const ic_program *p, size_t n_feeds, const char *const *feed_names,
                         size_t n_fetches, const char *const *fetch_names, ic_opseq *out,
                         ic_err *err);
void ic_opseq_free(ic_opseq *s);

#endif
