/* The program builder: programs assembled in memory and serialized to ProgramDesc bytes that
 * Paddle and icore both read. Everything lives in one arena; the first allocation failure
 * is remembered and reported by ic_builder_serialize(). */
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "framework.pb-c.h"
#include "icore/icore.h"
#include "program/program.h"

typedef struct battr {
  char *name;
  ic_attr_type type;
  int64_t i;         /* INT, LONG, BOOLEAN, BLOCK, integer SCALAR */
  double f;          /* FLOAT, FLOAT64, float SCALAR */
  char *s;           /* STRING */
  size_t n;          /* list length */
  int64_t *ints;     /* INTS, LONGS, BOOLEANS */
  double *floats;    /* FLOATS, FLOAT64S */
  char **strings;    /* STRINGS */
  bool scalar_float; /* SCALAR: f holds the value */
} battr;

typedef struct bslot {
  char *name;
  size_t n;
  char **args;
} bslot;

struct ic_builder_op {
  ic_builder *b;
  char *type;
  size_t n_ins, cap_ins;
  bslot *ins;
  size_t n_outs, cap_outs;
  bslot *outs;
  size_t n_attrs, cap_attrs;
  battr *attrs;
};

typedef struct bvar {
  char *name;
  int type; /* VarType.Type of the variable kind */
  ic_dtype dtype;
  int ndim;
  int64_t dims[IC_MAX_RANK];
  bool persistable;
} bvar;

typedef struct bblock {
  int parent;
  size_t n_vars, cap_vars;
  bvar *vars;
  size_t n_ops, cap_ops;
  ic_builder_op **ops;
} bblock;

struct ic_builder {
  ic_arena *arena;
  size_t n_blocks, cap_blocks;
  bblock *blocks;
  int n_feeds, n_fetches; /* columns handed out by ic_builder_feed/fetch */
  bool oom;               /* an allocation failed; serialize reports it */
};

/* Make room for one more element in an arena-backed array. */
static bool reserve(ic_builder *b, void **arr, size_t *cap, size_t n, size_t elem) {
  if (b->oom) return false;
  if (n < *cap) return true;
  size_t ncap = *cap ? *cap * 2 : 4;
  void *na = ic_arena_calloc(b->arena, ncap, elem);
  if (!na) {
    b->oom = true;
    return false;
  }
  if (n) memcpy(na, *arr, n * elem);
  *arr = na;
  *cap = ncap;
  return true;
}

static char *dup(ic_builder *b, const char *s) {
  if (b->oom) return NULL;
  char *d = ic_arena_strdup(b->arena, s ? s : "");
  if (!d) b->oom = true;
  return d;
}

static void *mem(ic_builder *b, size_t n, size_t elem) {
  if (b->oom) return NULL;
  void *p = ic_arena_calloc(b->arena, n ? n : 1, elem);
  if (!p) b->oom = true;
  return p;
}

ic_builder *ic_builder_create(void) {
  ic_builder *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->arena = ic_arena_create();
  if (!b->arena) {
    free(b);
    return NULL;
  }
  if (ic_builder_add_block(b, -1) < 0) {
    ic_builder_destroy(b);
    return NULL;
  }
  return b;
}

void ic_builder_destroy(ic_builder *b) {
  if (!b) return;
  ic_arena_destroy(b->arena);
  free(b);
}

int ic_builder_add_block(ic_builder *b, int parent) {
  if (!b || !reserve(b, (void **)&b->blocks, &b->cap_blocks, b->n_blocks, sizeof(bblock))) {
    return -1;
  }
  bblock *bl = &b->blocks[b->n_blocks];
  memset(bl, 0, sizeof *bl);
  bl->parent = parent;
  return (int)b->n_blocks++;
}

static bblock *block_at(ic_builder *b, int block) {
  if (!b || block < 0 || (size_t)block >= b->n_blocks) return NULL;
  return &b->blocks[block];
}

static bvar *add_var(ic_builder *b, int block, const char *name) {
  bblock *bl = block_at(b, block);
  if (!bl || !reserve(b, (void **)&bl->vars, &bl->cap_vars, bl->n_vars, sizeof(bvar))) {
    return NULL;
  }
  bvar *v = &bl->vars[bl->n_vars];
  memset(v, 0, sizeof *v);
  v->name = dup(b, name);
  if (!v->name) return NULL;
  bl->n_vars++;
  return v;
}

void ic_builder_var(ic_builder *b, int block, const char *name, ic_dtype dtype, int ndim,
                    const int64_t *dims, bool persistable) {
  bvar *v = add_var(b, block, name);
  if (!v) return;
  v->type = IC_VAR_LOD_TENSOR;
  v->dtype = dtype;
  v->ndim = ndim < 0 ? 0 : ndim > IC_MAX_RANK ? IC_MAX_RANK : ndim;
  for (int i = 0; i < v->ndim; i++) v->dims[i] = dims[i];
  v->persistable = persistable;
}

void ic_builder_var_kind(ic_builder *b, int block, const char *name, ic_var_type type,
                         bool persistable) {
  bvar *v = add_var(b, block, name);
  if (!v) return;
  v->type = (int)type;
  v->persistable = persistable;
}

ic_builder_op *ic_builder_add_op(ic_builder *b, int block, const char *type) {
  bblock *bl = block_at(b, block);
  if (!bl || !reserve(b, (void **)&bl->ops, &bl->cap_ops, bl->n_ops, sizeof(ic_builder_op *))) {
    return NULL;
  }
  ic_builder_op *op = mem(b, 1, sizeof *op);
  if (!op) return NULL;
  op->b = b;
  op->type = dup(b, type);
  bl->ops[bl->n_ops++] = op;
  return op;
}

static void add_slot(ic_builder_op *op, bool out, const char *slot, size_t n,
                     const char *const *args) {
  if (!op) return;
  ic_builder *b = op->b;
  bslot **arr = out ? &op->outs : &op->ins;
  size_t *cnt = out ? &op->n_outs : &op->n_ins;
  size_t *cap = out ? &op->cap_outs : &op->cap_ins;
  if (!reserve(b, (void **)arr, cap, *cnt, sizeof(bslot))) return;
  bslot *s = &(*arr)[*cnt];
  s->name = dup(b, slot);
  s->n = n;
  s->args = mem(b, n, sizeof(char *));
  if (!s->name || !s->args) return;
  for (size_t i = 0; i < n; i++) {
    if (!(s->args[i] = dup(b, args[i]))) return;
  }
  (*cnt)++;
}

void ic_builder_input(ic_builder_op *op, const char *slot, size_t n, const char *const *args) {
  add_slot(op, false, slot, n, args);
}
void ic_builder_output(ic_builder_op *op, const char *slot, size_t n, const char *const *args) {
  add_slot(op, true, slot, n, args);
}
void ic_builder_in(ic_builder_op *op, const char *slot, const char *arg) {
  add_slot(op, false, slot, 1, &arg);
}
void ic_builder_out(ic_builder_op *op, const char *slot, const char *arg) {
  add_slot(op, true, slot, 1, &arg);
}

static battr *add_attr(ic_builder_op *op, const char *name, ic_attr_type type) {
  if (!op) return NULL;
  ic_builder *b = op->b;
  /* Setting an attribute twice replaces it, as Paddle's OpDesc::SetAttr does. */
  battr *a = NULL;
  for (size_t i = 0; i < op->n_attrs; i++) {
    if (strcmp(op->attrs[i].name, name) == 0) a = &op->attrs[i];
  }
  if (!a) {
    if (!reserve(b, (void **)&op->attrs, &op->cap_attrs, op->n_attrs, sizeof(battr))) return NULL;
    a = &op->attrs[op->n_attrs];
    memset(a, 0, sizeof *a);
    if (!(a->name = dup(b, name))) return NULL;
    op->n_attrs++;
  }
  char *keep = a->name;
  memset(a, 0, sizeof *a);
  a->name = keep;
  a->type = type;
  return a;
}

void ic_builder_attr_int(ic_builder_op *op, const char *name, int32_t v) {
  battr *a = add_attr(op, name, IC_ATTR_INT);
  if (a) a->i = v;
}
void ic_builder_attr_long(ic_builder_op *op, const char *name, int64_t v) {
  battr *a = add_attr(op, name, IC_ATTR_LONG);
  if (a) a->i = v;
}
void ic_builder_attr_float(ic_builder_op *op, const char *name, float v) {
  battr *a = add_attr(op, name, IC_ATTR_FLOAT);
  if (a) a->f = v;
}
void ic_builder_attr_double(ic_builder_op *op, const char *name, double v) {
  battr *a = add_attr(op, name, IC_ATTR_FLOAT64);
  if (a) a->f = v;
}
void ic_builder_attr_bool(ic_builder_op *op, const char *name, bool v) {
  battr *a = add_attr(op, name, IC_ATTR_BOOLEAN);
  if (a) a->i = v;
}
void ic_builder_attr_block(ic_builder_op *op, const char *name, int32_t block) {
  battr *a = add_attr(op, name, IC_ATTR_BLOCK);
  if (a) a->i = block;
}
void ic_builder_attr_string(ic_builder_op *op, const char *name, const char *v) {
  battr *a = add_attr(op, name, IC_ATTR_STRING);
  if (a) a->s = dup(op->b, v);
}
void ic_builder_attr_scalar_double(ic_builder_op *op, const char *name, double v) {
  battr *a = add_attr(op, name, IC_ATTR_SCALAR);
  if (!a) return;
  a->f = v;
  a->scalar_float = true;
}
void ic_builder_attr_scalar_long(ic_builder_op *op, const char *name, int64_t v) {
  battr *a = add_attr(op, name, IC_ATTR_SCALAR);
  if (a) a->i = v;
}

static int64_t *int_list(ic_builder_op *op, const char *name, ic_attr_type type, size_t n) {
  battr *a = add_attr(op, name, type);
  if (!a) return NULL;
  a->n = n;
  a->ints = mem(op->b, n, sizeof(int64_t));
  return a->ints;
}

void ic_builder_attr_ints(ic_builder_op *op, const char *name, size_t n, const int32_t *v) {
  int64_t *d = int_list(op, name, IC_ATTR_INTS, n);
  for (size_t i = 0; d && i < n; i++) d[i] = v[i];
}
void ic_builder_attr_longs(ic_builder_op *op, const char *name, size_t n, const int64_t *v) {
  int64_t *d = int_list(op, name, IC_ATTR_LONGS, n);
  for (size_t i = 0; d && i < n; i++) d[i] = v[i];
}
void ic_builder_attr_bools(ic_builder_op *op, const char *name, size_t n, const bool *v) {
  int64_t *d = int_list(op, name, IC_ATTR_BOOLEANS, n);
  for (size_t i = 0; d && i < n; i++) d[i] = v[i];
}

static double *float_list(ic_builder_op *op, const char *name, ic_attr_type type, size_t n) {
  battr *a = add_attr(op, name, type);
  if (!a) return NULL;
  a->n = n;
  a->floats = mem(op->b, n, sizeof(double));
  return a->floats;
}

void ic_builder_attr_floats(ic_builder_op *op, const char *name, size_t n, const float *v) {
  double *d = float_list(op, name, IC_ATTR_FLOATS, n);
  for (size_t i = 0; d && i < n; i++) d[i] = v[i];
}
void ic_builder_attr_doubles(ic_builder_op *op, const char *name, size_t n, const double *v) {
  double *d = float_list(op, name, IC_ATTR_FLOAT64S, n);
  for (size_t i = 0; d && i < n; i++) d[i] = v[i];
}
void ic_builder_attr_strings(ic_builder_op *op, const char *name, size_t n,
                             const char *const *v) {
  battr *a = add_attr(op, name, IC_ATTR_STRINGS);
  if (!a) return;
  a->n = n;
  a->strings = mem(op->b, n, sizeof(char *));
  for (size_t i = 0; a->strings && i < n; i++) a->strings[i] = dup(op->b, v[i]);
}

static bool has_var(const ic_builder *b, const char *name) {
  if (!b->n_blocks) return false; /* creating block 0 ran out of memory */
  const bblock *bl = &b->blocks[0];
  for (size_t i = 0; i < bl->n_vars; i++) {
    if (strcmp(bl->vars[i].name, name) == 0) return true;
  }
  return false;
}

void ic_builder_feed(ic_builder *b, const char *target) {
  if (!b) return;
  if (!has_var(b, "feed")) ic_builder_var_kind(b, 0, "feed", IC_VAR_FEED_MINIBATCH, true);
  ic_builder_op *op = ic_builder_add_op(b, 0, "feed");
  ic_builder_in(op, "X", "feed");
  ic_builder_out(op, "Out", target);
  ic_builder_attr_int(op, "col", b->n_feeds++);
}

void ic_builder_fetch(ic_builder *b, const char *target) {
  if (!b) return;
  if (!has_var(b, "fetch")) ic_builder_var_kind(b, 0, "fetch", IC_VAR_FETCH_LIST, true);
  ic_builder_op *op = ic_builder_add_op(b, 0, "fetch");
  ic_builder_in(op, "X", target);
  ic_builder_out(op, "Out", "fetch");
  ic_builder_attr_int(op, "col", b->n_fetches++);
}

/* ---- serialization: arena-built protobuf-c messages, packed once ---- */

typedef Paddle__Framework__Proto__OpDesc__Attr pb_attr;
typedef Paddle__Framework__Proto__OpDesc__Var pb_slot;

static bool pack_attr(ic_arena *ar, const battr *in, pb_attr *a) {
  paddle__framework__proto__op_desc__attr__init(a);
  a->name = in->name;
  a->type = (Paddle__Framework__Proto__AttrType)in->type;
  switch (in->type) {
    case IC_ATTR_INT: a->has_i = 1; a->i = (int32_t)in->i; break;
    case IC_ATTR_LONG: a->has_l = 1; a->l = in->i; break;
    case IC_ATTR_BOOLEAN: a->has_b = 1; a->b = in->i != 0; break;
    case IC_ATTR_BLOCK: a->has_block_idx = 1; a->block_idx = (int32_t)in->i; break;
    case IC_ATTR_FLOAT: a->has_f = 1; a->f = (float)in->f; break;
    case IC_ATTR_FLOAT64: a->has_float64 = 1; a->float64 = in->f; break;
    case IC_ATTR_STRING: a->s = in->s; break;
    case IC_ATTR_STRINGS: a->n_strings = in->n; a->strings = in->strings; break;
    case IC_ATTR_INTS:
      a->n_ints = in->n;
      if (!(a->ints = ic_arena_calloc(ar, in->n ? in->n : 1, sizeof(int32_t)))) return false;
      for (size_t k = 0; k < in->n; k++) a->ints[k] = (int32_t)in->ints[k];
      break;
    case IC_ATTR_LONGS:
      a->n_longs = in->n;
      a->longs = in->ints;
      break;
    case IC_ATTR_BOOLEANS:
      a->n_bools = in->n;
      if (!(a->bools = ic_arena_calloc(ar, in->n ? in->n : 1, sizeof(protobuf_c_boolean)))) {
        return false;
      }
      for (size_t k = 0; k < in->n; k++) a->bools[k] = in->ints[k] != 0;
      break;
    case IC_ATTR_FLOATS:
      a->n_floats = in->n;
      if (!(a->floats = ic_arena_calloc(ar, in->n ? in->n : 1, sizeof(float)))) return false;
      for (size_t k = 0; k < in->n; k++) a->floats[k] = (float)in->floats[k];
      break;
    case IC_ATTR_FLOAT64S:
      a->n_float64s = in->n;
      a->float64s = in->floats;
      break;
    case IC_ATTR_SCALAR: {
      Paddle__Framework__Proto__Scalar *s = ic_arena_alloc(ar, sizeof *s);
      if (!s) return false;
      paddle__framework__proto__scalar__init(s);
      if (in->scalar_float) {
        s->type = PADDLE__FRAMEWORK__PROTO__SCALAR__TYPE__FLOAT64;
        s->has_r = 1;
        s->r = in->f;
      } else {
        s->type = PADDLE__FRAMEWORK__PROTO__SCALAR__TYPE__LONG;
        s->has_i = 1;
        s->i = in->i;
      }
      a->scalar = s;
      break;
    }
    default: break;
  }
  return true;
}

static pb_slot **pack_slots(ic_arena *ar, size_t n, const bslot *in) {
  pb_slot **out = ic_arena_calloc(ar, n ? n : 1, sizeof *out);
  if (!out) return NULL;
  for (size_t i = 0; i < n; i++) {
    pb_slot *s = ic_arena_alloc(ar, sizeof *s);
    if (!s) return NULL;
    paddle__framework__proto__op_desc__var__init(s);
    s->parameter = in[i].name;
    s->n_arguments = in[i].n;
    s->arguments = in[i].args;
    out[i] = s;
  }
  return out;
}

static Paddle__Framework__Proto__VarDesc *pack_var(ic_arena *ar, const bvar *in) {
  Paddle__Framework__Proto__VarDesc *v = ic_arena_alloc(ar, sizeof *v);
  Paddle__Framework__Proto__VarType *t = ic_arena_alloc(ar, sizeof *t);
  if (!v || !t) return NULL;
  paddle__framework__proto__var_desc__init(v);
  paddle__framework__proto__var_type__init(t);
  v->name = in->name;
  v->type = t;
  v->has_persistable = 1;
  v->persistable = in->persistable;
  t->type = (Paddle__Framework__Proto__VarType__Type)in->type;
  if (in->type == IC_VAR_LOD_TENSOR) {
    Paddle__Framework__Proto__VarType__LoDTensorDesc *ld = ic_arena_alloc(ar, sizeof *ld);
    Paddle__Framework__Proto__VarType__TensorDesc *td = ic_arena_alloc(ar, sizeof *td);
    int64_t *dims = ic_arena_calloc(ar, in->ndim ? (size_t)in->ndim : 1, sizeof *dims);
    if (!ld || !td || !dims) return NULL;
    paddle__framework__proto__var_type__lo_dtensor_desc__init(ld);
    paddle__framework__proto__var_type__tensor_desc__init(td);
    td->data_type = (Paddle__Framework__Proto__VarType__Type)in->dtype;
    td->n_dims = (size_t)in->ndim;
    memcpy(dims, in->dims, (size_t)in->ndim * sizeof *dims);
    td->dims = dims;
    ld->tensor = td;
    t->lod_tensor = ld;
  }
  return v;
}

static ic_status pack_program(const ic_builder *b, ic_arena *ar, void **bytes, size_t *size) {
  Paddle__Framework__Proto__ProgramDesc prog;
  paddle__framework__proto__program_desc__init(&prog);
  Paddle__Framework__Proto__Version ver;
  paddle__framework__proto__version__init(&ver);
  ver.has_version = 1;
  ver.version = 0;
  prog.version = &ver;
  prog.n_blocks = b->n_blocks;
  prog.blocks = ic_arena_calloc(ar, b->n_blocks, sizeof *prog.blocks);
  if (!prog.blocks) return IC_ERR_OUT_OF_MEMORY;
  for (size_t bi = 0; bi < b->n_blocks; bi++) {
    const bblock *in = &b->blocks[bi];
    Paddle__Framework__Proto__BlockDesc *bd = ic_arena_alloc(ar, sizeof *bd);
    if (!bd) return IC_ERR_OUT_OF_MEMORY;
    paddle__framework__proto__block_desc__init(bd);
    bd->idx = (int32_t)bi;
    bd->parent_idx = in->parent;
    bd->n_vars = in->n_vars;
    bd->vars = ic_arena_calloc(ar, in->n_vars ? in->n_vars : 1, sizeof *bd->vars);
    bd->n_ops = in->n_ops;
    bd->ops = ic_arena_calloc(ar, in->n_ops ? in->n_ops : 1, sizeof *bd->ops);
    if (!bd->vars || !bd->ops) return IC_ERR_OUT_OF_MEMORY;
    for (size_t v = 0; v < in->n_vars; v++) {
      if (!(bd->vars[v] = pack_var(ar, &in->vars[v]))) return IC_ERR_OUT_OF_MEMORY;
    }
    for (size_t o = 0; o < in->n_ops; o++) {
      const ic_builder_op *bop = in->ops[o];
      Paddle__Framework__Proto__OpDesc *od = ic_arena_alloc(ar, sizeof *od);
      if (!od) return IC_ERR_OUT_OF_MEMORY;
      paddle__framework__proto__op_desc__init(od);
      od->type = bop->type;
      od->n_inputs = bop->n_ins;
      od->inputs = pack_slots(ar, bop->n_ins, bop->ins);
      od->n_outputs = bop->n_outs;
      od->outputs = pack_slots(ar, bop->n_outs, bop->outs);
      od->n_attrs = bop->n_attrs;
      od->attrs = ic_arena_calloc(ar, bop->n_attrs ? bop->n_attrs : 1, sizeof *od->attrs);
      if (!od->inputs || !od->outputs || !od->attrs) return IC_ERR_OUT_OF_MEMORY;
      for (size_t a = 0; a < bop->n_attrs; a++) {
        pb_attr *pa = ic_arena_alloc(ar, sizeof *pa);
        if (!pa || !pack_attr(ar, &bop->attrs[a], pa)) return IC_ERR_OUT_OF_MEMORY;
        od->attrs[a] = pa;
      }
      bd->ops[o] = od;
    }
    prog.blocks[bi] = bd;
  }
  size_t n = paddle__framework__proto__program_desc__get_packed_size(&prog);
  uint8_t *out = malloc(n ? n : 1);
  if (!out) return IC_ERR_OUT_OF_MEMORY;
  paddle__framework__proto__program_desc__pack(&prog, out);
  *bytes = out;
  *size = n;
  return IC_OK;
}

ic_status ic_builder_serialize(const ic_builder *b, void **bytes, size_t *size) {
  if (bytes) *bytes = NULL;
  if (size) *size = 0;
  if (!b || !bytes || !size) return IC_ERR_INVALID_ARGUMENT;
  if (b->oom) return IC_ERR_OUT_OF_MEMORY;
  ic_arena *ar = ic_arena_create();
  if (!ar) return IC_ERR_OUT_OF_MEMORY;
  ic_status st = pack_program(b, ar, bytes, size);
  ic_arena_destroy(ar);
  return st;
}

ic_status ic_builder_build(const ic_builder *b, ic_program **out, char *err, size_t errlen) {
  void *bytes;
  size_t size;
  if (out) *out = NULL;
  ic_status st = ic_builder_serialize(b, &bytes, &size);
  if (st) {
    if (err && errlen) {
      ic_err e;
      ic_err_set(&e, st, "ic_builder_build: %s", st == IC_ERR_OUT_OF_MEMORY
                                                     ? "out of memory while building"
                                                     : "invalid argument");
      ic_err_out(&e, err, errlen);
    }
    return st;
  }
  st = ic_program_from_bytes(bytes, size, "<builder>", out, err, errlen);
  free(bytes);
  return st;
}
