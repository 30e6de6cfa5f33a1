/* Inference rewrites (fuse.c): the state they share and the helpers the rewrites in other
 * files (fuse_linear.c) use. Internal to the analysis layer. */
#ifndef IC_ANALYSIS_FUSE_H
#define IC_ANALYSIS_FUSE_H

#include "analysis/opseq.h"

typedef struct fuser {
  ic_opseq *seq;
  const ic_program *prog;
  ic_strmap readers;      /* name -> number of input arguments naming it (as uintptr_t) */
  ic_strmap keep;         /* fetched names: never an intermediate */
  bool *removed;
  const ic_op **replace;  /* per op index: the ops to emit there instead (up to 2) */
  const ic_op **replace2;
  ic_err *err;
  bool cpu;               /* a CPU plan: the affine joins too */
} fuser;

/* The single argument of op's input (out false) or output slot, or NULL. */
const char *ic_fuse_arg(const ic_op *op, bool out, const char *slot);
/* The index of the only op after `from` reading `name`, which must have exactly one reader
 * and not be fetched; SIZE_MAX otherwise. */
size_t ic_fuse_sole_reader(const fuser *f, size_t from, const char *name);
/* A numeric attribute's value (int, long, float, bool), or dflt when absent. */
double ic_fuse_num_attr(const ic_op *op, const char *name, double dflt);
/* Whether an op strictly between i and last, other than the pattern's, writes one of names. */
bool ic_fuse_written_between(const fuser *f, size_t i, size_t last, const size_t *pattern,
                             size_t n_pat, const char *const *names, size_t n_names);
/* A slot `name` holding the one argument v (allocated in a). */
ic_slot ic_fuse_slot1(ic_arena *a, const char *name, const char *v);
/* Whether op is elementwise_`type` as Paddle's plain op computes it (no fused activation,
 * the legacy oneDNN scales all 1). */
bool ic_fuse_plain_elementwise(const ic_op *op, const char *type);

/* In place: base (its block and index, which errors name) with these inputs, one output
 * slot and these attributes, sorted here; the caller sets the type. */
void ic_fuse_set_op(ic_op *nc, const ic_op *base, ic_slot *ins, size_t n_ins, ic_slot *outs,
                    ic_attr *at, size_t na);
/* Whether no op reads name and it is not kept (fetched, or named by a sub-block). */
bool ic_fuse_unread(const fuser *f, const char *name);

/* fuse_dropout.c: a dropout at op i that computes Out = X (inference) into a view, assign. */
ic_status ic_fuse_dropout(fuser *f, size_t i);

/* fuse_linear.c: the matrix product at op i (matmul_v2, matmul or mul), the bias add after
 * it and a relu after that, into fc. */
ic_status ic_fuse_linear(fuser *f, size_t i);

#endif
