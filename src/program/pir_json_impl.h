/* The internals of the PIR JSON translator (pir_json.c), shared with the files that
 * translate some of its ops (pir_cf.c: control flow and tensor arrays; pir_special.c: the
 * ops that are not a row of pir_ops.c's table). Not part of the library's interface: the
 * ic_pj_ prefix marks the functions these three files call across. */
#ifndef IC_PROGRAM_PIR_JSON_IMPL_H
#define IC_PROGRAM_PIR_JSON_IMPL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/err.h"
#include "common/strmap.h"
#include "icore/icore.h"
#include "program/pir_ops.h"

/* One SSA value of the program (an op result or a block argument). */
typedef struct pval {
  int64_t id;
  const char *name;   /* the variable name */
  bool fixed;         /* the name comes from the program (parameter, data, fetch) */
  int block;          /* defining block */
  struct pval *alias; /* a builtin.split result: the vector element it is */
  struct pval *stacked; /* a pd_op.stack (axis 0) of one-element tensors: that vector */
  size_t n_elems;     /* a vector value (t_vec): its elements */
  struct pval **elems;
  bool is_vec;
  bool is_array; /* a dense tensor array (pd_op.create_array): a LOD_TENSOR_ARRAY variable */
  /* type */
  bool has_type;
  bool tensor;
  int dtype; /* Paddle VarType number; -1 unsupported */
  const char *dtype_name;
  int ndim;
  int64_t dims[IC_MAX_RANK];
  bool persistable;
  /* constants */
  int konst; /* 0 none, 1 full with one element, 2 full_int_array */
  double kval;
  size_t kn;
  int64_t *kints;
  bool tensor_use; /* some op reads it as a tensor */
  bool declared;   /* the second walk declared its variable */
} pval;

typedef struct fetchref {
  int64_t col;
  pval *v;
} fetchref;

typedef struct ctx {
  const char *origin;
  ic_err *err;
  ic_arena *arena;
  ic_builder *b; /* NULL in the first walk */
  ic_strmap values;
  ic_strmap params; /* parameter names declared (second walk) */
  int n_blocks;
  int *parents;
  size_t cap_parents;
  size_t n_fetch, cap_fetch;
  fetchref *fetch;
  /* where we are, for messages */
  int block;
  long op;
  const char *opname;
  /* the pd_op.if branch or pd_op.while body being emitted (second walk), which its
   * cf.yield writes to; NULL outside them */
  const struct cfframe *cf;
} ctx;

/* What a cf.yield assigns (translate_if, translate_while): the if's branch copies of its
 * results, or the while's loop variables (its results) and condition. */
typedef struct cfframe {
  bool is_while;
  size_t n;      /* targets */
  pval **dst;    /* if: the branch's copies of the results; while: the results */
  pval *cond;    /* while: the condition variable */
} cfframe;

/* What walk_op found for one op, handed to the translation that takes it: its name within its
 * dialect ("conv2d"), its compressed JSON name ("1.conv2d"; "p" for a parameter), its operands
 * and results (NULL entries: the null value), and whether this is the first walk (defining
 * values, icore's ops not built yet) or the second (building them). */
typedef struct pir_opargs {
  const char *name, *cname;
  pval **in, **out, *out0;
  size_t n_in, n_out;
  bool first;
} pir_opargs;

/* A translation of one op (both walks). */
typedef ic_status (*ic_pj_translation)(ctx *c, const json_t *op, const pir_opargs *oa);

/* Errors, located at the op being walked ("FILE: op #3 (pd_op.conv2d) in block 0: ..."). */
ic_status ic_pj_oom(ctx *c);
ic_status ic_pj_fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Values */
pval *ic_pj_find_value(ctx *c, int64_t id);
pval *ic_pj_resolve(pval *v); /* through builtin.split aliases */
pval *ic_pj_new_value(ctx *c, int64_t id);
ic_status ic_pj_declare(ctx *c, pval *v); /* its variable, in the current block (second walk) */
void ic_pj_mark_use(pval *v);             /* some op reads it as a tensor (first walk) */
ic_status ic_pj_emit_values(ctx *c, ic_builder_op *bop, bool input, const char *slot, size_t n,
                            pval **vs);

/* JSON and attributes */
const char *ic_pj_jtype(const json_t *j);
bool ic_pj_dtype_from_name(const char *s, int *out);
json_t *ic_pj_op_attr(const json_t *op, const char *name);
json_t *ic_pj_adata(const json_t *at);
float ic_pj_to_f32(double v);
bool ic_pj_num_of(const json_t *d, double *out);
ic_status ic_pj_emit_attr(ctx *c, ic_builder_op *op, const char *name, const json_t *at);
ic_status ic_pj_int_attr(ctx *c, const json_t *op, const char *name, int64_t *v);
ic_status ic_pj_str_attr(ctx *c, const json_t *op, const char *name, const char **v);
bool ic_pj_param_persistable(const json_t *op);
ic_status ic_pj_do_constant(ctx *c, const json_t *op, bool int_array, pval *v);

/* The walk */
ic_status ic_pj_walk_region(ctx *c, const json_t *region, int parent, int *first_block,
                            int *n_blocks);

/* pir_cf.c */
ic_status ic_pj_tr_regions(ctx *c, const json_t *op, const json_t *regions, bool pd,
                           const pir_opargs *oa);
ic_status ic_pj_tr_cf(ctx *c, const json_t *op, const pir_opargs *oa);
ic_status ic_pj_tr_create_array(ctx *c, const json_t *op, const pir_opargs *oa);
ic_status ic_pj_tr_array_write(ctx *c, const json_t *op, const pir_opargs *oa);
ic_status ic_pj_tr_array_read_back(ctx *c, const json_t *op, const pir_opargs *oa);

/* pir_special.c: the translation of a builtin op (builtin) or of a pd_op taken by a function
 * of its own, or NULL (a builtin op icore does not translate; a pd_op of the table). */
ic_pj_translation ic_pj_special(bool builtin, const pir_opargs *oa);

#endif
