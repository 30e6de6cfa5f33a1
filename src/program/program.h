/* The parsed program: Paddle's ProgramDesc converted once into plain, indexed C structs.
 * Everything here is immutable after ic_program_from_bytes() returns and lives as long as
 * the program; strings and arrays are borrowed from it. */
#ifndef IC_PROGRAM_PROGRAM_H
#define IC_PROGRAM_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/atomic.h"
#include "common/err.h"
#include "common/strmap.h"
#include "icore/icore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Paddle's AttrType numbers. */
typedef enum ic_attr_type {
  IC_ATTR_INT = 0,
  IC_ATTR_FLOAT = 1,
  IC_ATTR_STRING = 2,
  IC_ATTR_INTS = 3,
  IC_ATTR_FLOATS = 4,
  IC_ATTR_STRINGS = 5,
  IC_ATTR_BOOLEAN = 6,
  IC_ATTR_BOOLEANS = 7,
  IC_ATTR_BLOCK = 8,
  IC_ATTR_LONG = 9,
  IC_ATTR_BLOCKS = 10,
  IC_ATTR_LONGS = 11,
  IC_ATTR_FLOAT64S = 12,
  IC_ATTR_VAR = 13,
  IC_ATTR_VARS = 14,
  IC_ATTR_FLOAT64 = 15,
  IC_ATTR_SCALAR = 16,
  IC_ATTR_SCALARS = 17
} ic_attr_type;

/* Name of an attribute type ("INTS"), for messages. */
const char *ic_attr_type_name(int type);

/* One op attribute with its value normalized: every integer kind widened to int64 and every
 * float kind to double (exact), so getters need not care which Paddle version wrote it. */
typedef struct ic_attr {
  const char *name;
  ic_attr_type type;          /* the type as written in the program */
  int64_t i;                  /* INT, LONG, BOOLEAN, BLOCK; SCALAR holding a bool or int */
  double f;                   /* FLOAT, FLOAT64; SCALAR holding a float */
  const char *s;              /* STRING, VAR */
  size_t n;                   /* element count of a list kind */
  const int64_t *ints;        /* INTS, LONGS, BOOLEANS, BLOCKS */
  const double *floats;       /* FLOATS, FLOAT64S, SCALARS (as doubles) */
  const char *const *strings; /* STRINGS, VARS */
  bool scalar_is_float;       /* SCALAR: the value is in f (else in i) */
} ic_attr;

/* One input or output parameter of an op: a slot name and its variable names. */
typedef struct ic_slot {
  const char *name;        /* Paddle's parameter name: "X", "Out", "Filter" */
  size_t n;                /* argument count; may be 0 */
  const char *const *args; /* variable names */
} ic_slot;

/* One op. Synthetic ops (feed/fetch the executor adds) use the same struct. */
typedef struct ic_op {
  const char *type;     /* op type, "conv2d" */
  int block;            /* block index */
  int index;            /* position in its block; -1 for a synthetic op */
  size_t n_inputs;      /* slots, in program order */
  const ic_slot *inputs;
  size_t n_outputs;
  const ic_slot *outputs;
  size_t n_attrs;       /* sorted by name (bsearch) */
  const ic_attr *attrs;
} ic_op;

/* A variable declaration. */
typedef struct ic_vardesc {
  const char *name;
  int block;                   /* declaring block */
  int type;                    /* Paddle VarType.Type: 7 LOD_TENSOR, 9 FEED_MINIBATCH, ... */
  bool is_tensor;              /* LOD_TENSOR or SELECTED_ROWS with a TensorDesc */
  ic_dtype dtype;              /* tensors only */
  int ndim;                    /* tensors only */
  int64_t dims[IC_MAX_RANK];   /* -1 where known only at run time */
  int lod_level;
  bool persistable;
} ic_vardesc;

/* Deepest nesting of blocks (control-flow sub-blocks: Paddle programs nest a few levels).
 * Bounding it keeps loading linear in the file size: a variable lookup walks at most this
 * many parents. */
#define IC_MAX_BLOCK_DEPTH 64

typedef struct ic_block {
  int idx;
  int parent;           /* -1 for block 0 */
  int forward;          /* a grad block (while_grad, conditional_block_grad): the forward
                           block it differentiates (Paddle's forward_block_idx), whose own
                           variables its ops may name (the forward's step scope); else -1 */
  size_t n_vars;
  ic_vardesc *vars;     /* in program order */
  ic_strmap var_index;  /* name -> ic_vardesc* of this block only */
  size_t n_ops;
  ic_op *ops;
} ic_block;

struct ic_program {
  ic_atomic_int refs;      /* the caller's handle plus plans that retain it */
  void *bytes;             /* the exact serialized bytes (owned) */
  size_t size;
  uint64_t hash;           /* XXH64 of bytes, computed once at load */
  char *origin;            /* file name or "<memory>", for messages */
  size_t n_blocks;
  ic_block *blocks;
  int64_t version;         /* ProgramDesc.version, 0 when absent */
  size_t n_feeds;          /* feed targets by col: the feed ops' first, then the outputs of
                              the data-reader ops (ic_program_is_reader_op) */
  const char **feeds;
  size_t n_feed_ops;       /* how many of them feed ops write */
  size_t n_fetches;        /* fetch targets by col */
  const char **fetches;
  void *pb;                /* the protobuf-c message our strings point into */
  struct ic_arena *arena;  /* normalized arrays */
};

/* Keep p alive until a matching ic_program_destroy(); for caches holding a plan of it. */
void ic_program_retain(const ic_program *p);

/* The declaration of name visible from block (searching parents, and at each block of the
 * walk the own variables of its forward block, if it is a grad block), or NULL. */
const ic_vardesc *ic_program_find_var(const ic_program *p, int block, const char *name);
/* ic_program_find_var, or else a persistable of that name declared in any block: Paddle keeps
 * persistables in the global scope wherever they are declared, so a control-flow op sees the
 * persistables its sub-blocks declare as its own outer variables. */
const ic_vardesc *ic_program_find_var_global(const ic_program *p, int block, const char *name);
/* The attribute named so, or NULL. */
const ic_attr *ic_op_attr(const ic_op *op, const char *name);
/* The slot named so, or NULL. */
const ic_slot *ic_op_input(const ic_op *op, const char *name);
const ic_slot *ic_op_output(const ic_op *op, const char *name);
/* "op #3 (relu) in block 0" or "feed op (added for 'x')"; writes into buf, returns buf. */
const char *ic_op_where(const ic_op *op, char *buf, size_t len);

/* ----------------------------------------------------------------------------------------
 * Attribute reading for op definitions. A reader remembers its first error, so a parse
 * function reads every attribute and returns r->st once:
 *
 *   a->axis = ic_ar_int(r, "axis", -1);
 *   a->scale = (float)ic_ar_float(r, "scale", 1.0);
 *   return r->st;
 *
 * Integer getters accept INT, LONG and BOOLEAN; float getters FLOAT, FLOAT64, and the
 * integer kinds; list getters INTS/LONGS/BOOLEANS and FLOATS/FLOAT64S. SCALAR reads as
 * its value. Anything else is IC_ERR_INVALID_PROGRAM naming the op and attribute.
 * -------------------------------------------------------------------------------------- */
typedef struct ic_attr_reader {
  const ic_op *op;
  ic_err *err;
  ic_status st; /* IC_OK until the first failure */
} ic_attr_reader;

void ic_ar_init(ic_attr_reader *r, const ic_op *op, ic_err *err);
bool ic_ar_has(const ic_attr_reader *r, const char *name);
int64_t ic_ar_int(ic_attr_reader *r, const char *name, int64_t dflt);
int64_t ic_ar_int_req(ic_attr_reader *r, const char *name);
double ic_ar_float(ic_attr_reader *r, const char *name, double dflt);
double ic_ar_float_req(ic_attr_reader *r, const char *name);
bool ic_ar_bool(ic_attr_reader *r, const char *name, bool dflt);
const char *ic_ar_str(ic_attr_reader *r, const char *name, const char *dflt);
/* Lists: *v and *n describe the list (borrowed from the program); returns whether the
 * attribute is present. A required list that is absent is an error. */
bool ic_ar_ints(ic_attr_reader *r, const char *name, bool required, const int64_t **v,
                size_t *n);
bool ic_ar_floats(ic_attr_reader *r, const char *name, bool required, const double **v,
                  size_t *n);
/* Fail the reader with a message about attribute `name` ("must be 0 or 1, got 7"). */
ic_status ic_ar_fail(ic_attr_reader *r, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

/* Paddle's data-reader ops (create_py_reader, create_double_buffer_reader, read, ...),
 * which stream batches from a Python DataLoader in training programs: icore has no readers,
 * so a `read` op's outputs become feed targets (the caller feeds them) and every reader op is
 * left out of the runs (analysis/opseq.c). */
bool ic_program_is_reader_op(const char *type);

#endif
