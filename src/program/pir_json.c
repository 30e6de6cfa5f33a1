/* Paddle 3's PIR JSON programs, translated into a ProgramDesc.
 *
 * The format is what paddle/fluid/pir/serialize_deserialize writes (ProgramWriter, with the
 * keys of its schema.h):
 *
 *   {"base_code": {"magic": "pir", "trainable": B, "version": N},
 *    "program": {"regions": [{"#": "region_0", "blocks": [{"#": "block_0", "args": [...],
 *                 "ops": [OP, ...]}]}]}}
 *   OP    = {"#": "D.name", "I": [{"%": ID}...], "O": [{"%": ID, "TT": TYPE}...],
 *            "A": [{"N": name, "AT": ATTR}...], "OA": [...], "regions": [...]}
 *   TYPE  = {"#": "0.t_dtensor", "D": [{"#": "0.t_f32"}, dims, layout, lod, offset]}
 *           | {"#": "0.t_vec", "D": [TYPE...]} | {"#": "NULL"}
 *   ATTR  = {"#": "0.a_i32" | "0.a_f32" | "0.a_array" | "1.a_intarray" | ..., "D": value}
 *
 * Dialect names are compressed to numbers ("0" builtin, "1" pd_op, "2" cf, "3" custom_op,
 * "4" dist) and builtin.parameter to {"#": "p", "A": [.., .., .., name], "O": {...}}. Values
 * are SSA: every op result has a fresh positive id, 0 is the null value, block arguments
 * count down from -1. Inplace ops (batch_norm_, relu_) still give their results fresh ids.
 *
 * Translation, in two walks over the same JSON: the first defines every value (checking
 * that each operand names a value defined earlier in its block or an enclosing one, so
 * dangling ids and cycles fail there), records the constants that full and full_int_array
 * produce, and notes which of them some op reads as a tensor; the second emits ops with the
 * program builder. Values become variables (parameters keep their names, pd_op.data its
 * `name`, a fetched value the fetch's `name`, others "%ID"); pd_op ops become the ProgramDesc
 * ops the kernels read, with their slots named and attributes renamed as the protobuf
 * program would have them (the table in pir_ops.c); IntArray and Scalar operands that come from
 * constants fold into the attribute the protobuf op carries (pool2d's ksize, reshape2's
 * shape, concat's axis, scale's scale), and otherwise feed the op's tensor slot (reshape2's
 * Shape / ShapeTensor). Regions of control-flow ops become sub-blocks: pd_op.if becomes the
 * ops of Paddle's legacy cond (two conditional_blocks and select_input), pd_op.while the
 * legacy while over variables holding its results, their cf.yield assigns
 * (translate_if, translate_while); any other op with regions keeps its PIR name (no kernel). */
#include "program/pir_json.h"

#include <float.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "icore/icore.h"
#include "program/pir_ops.h"

/* The reductions: an empty axis list means all axes. */
static bool is_reduce(const char *type) { return strncmp(type, "reduce_", 7) == 0; }

/* ---------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------- */

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

static ic_status oom(ctx *c) { return ic_err_set(c->err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

/* "FILE: op #3 (pd_op.conv2d) in block 0: " + message */
static ic_status fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static ic_status fail(ctx *c, const char *fmt, ...) {
  char msg[IC_ERRMSG_MAX / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (c->opname) {
    return ic_err_set(c->err, IC_ERR_INVALID_PROGRAM, "%s: op #%ld (%s) in block %d: %s",
                      c->origin, c->op, c->opname, c->block, msg);
  }
  return ic_err_set(c->err, IC_ERR_INVALID_PROGRAM, "%s: %s", c->origin, msg);
}

static const char *id_key(ctx *c, int64_t id) {
  char k[32];
  snprintf(k, sizeof k, "%" PRId64, id);
  return ic_arena_strdup(c->arena, k);
}

static pval *find_value(ctx *c, int64_t id) {
  char k[32];
  snprintf(k, sizeof k, "%" PRId64, id);
  return ic_strmap_get(&c->values, k);
}

static pval *resolve(pval *v) {
  while (v && v->alias) v = v->alias;
  return v;
}

static bool block_visible(const ctx *c, int def, int use) {
  for (int b = use; b >= 0; b = c->parents[b]) {
    if (b == def) return true;
  }
  return false;
}

/* ---------------------------------------------------------------------------------------
 * JSON access with located errors
 * ------------------------------------------------------------------------------------- */

static const char *jtype(const json_t *j) {
  switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
  }
  return "?";
}

/* obj[key] of the wanted kind, or an error naming what. `what` describes obj. */
static json_t *get(ctx *c, const json_t *obj, const char *key, json_type want, bool required,
                   const char *what, ic_status *st) {
  json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
  if (!v) {
    if (required) *st = fail(c, "%s has no \"%s\"", what, key);
    return NULL;
  }
  bool ok = json_typeof(v) == want || (want == JSON_INTEGER && json_is_integer(v)) ||
            (want == JSON_TRUE && json_is_boolean(v));
  if (!ok) {
    *st = fail(c, "%s: \"%s\" is %s, expected %s", what, key, jtype(v),
               want == JSON_OBJECT ? "an object" : want == JSON_ARRAY ? "an array"
               : want == JSON_STRING ? "a string" : want == JSON_TRUE ? "a boolean"
                                                   : "an integer");
    return NULL;
  }
  return v;
}

/* ---------------------------------------------------------------------------------------
 * Types
 * ------------------------------------------------------------------------------------- */

static const struct {
  const char *pir, *name;
  int dtype;
} k_types[] = {
    {"t_bool", "bool", IC_BOOL},     {"t_i16", "int16", IC_INT16},  {"t_i32", "int32", IC_INT32},
    {"t_i64", "int64", IC_INT64},    {"t_f16", "float16", IC_FP16}, {"t_f32", "float32", IC_FP32},
    {"t_f64", "float64", IC_FP64},   {"t_ui8", "uint8", IC_UINT8},  {"t_i8", "int8", IC_INT8},
    {"t_bf16", "bfloat16", IC_BF16}, {"t_c64", "complex64", IC_COMPLEX64},
    {"t_c128", "complex128", IC_COMPLEX128},
    {"t_f8e4m3fn", "float8_e4m3fn", -1}, {"t_f8e5m2", "float8_e5m2", -1},
};

/* a_dtype names (phi::DataType printed): "float32", "int64", "Undefined(ALL_DTYPE)". */
static bool dtype_from_name(const char *s, int *out) {
  static const struct {
    const char *name;
    int dtype;
  } names[] = {{"bool", IC_BOOL},       {"int16", IC_INT16},    {"int32", IC_INT32},
               {"int64", IC_INT64},     {"float16", IC_FP16},   {"float32", IC_FP32},
               {"float64", IC_FP64},    {"uint8", IC_UINT8},    {"int8", IC_INT8},
               {"bfloat16", IC_BF16},   {"complex64", IC_COMPLEX64}, {"complex128", IC_COMPLEX128}};
  if (strncmp(s, "Undefined", 9) == 0) {
    *out = -1;
    return true;
  }
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(s, names[i].name) == 0) {
      *out = names[i].dtype;
      return true;
    }
  }
  return false;
}

/* The part after "D." of a compressed name, or the whole string. */
static const char *after_dialect(const char *s) {
  const char *dot = strchr(s, '.');
  return dot ? dot + 1 : s;
}

static ic_status read_dense_type(ctx *c, const json_t *tt, pval *v, const char *what) {
  ic_status st = IC_OK;
  json_t *d = get(c, tt, "D", JSON_ARRAY, true, what, &st);
  if (!d) return st;
  if (json_array_size(d) < 2) return fail(c, "%s: a dense tensor type needs [dtype, dims, ...]", what);
  json_t *dt = json_array_get(d, 0), *dims = json_array_get(d, 1);
  json_t *dtid = get(c, dt, "#", JSON_STRING, true, what, &st);
  if (!dtid) return st;
  const char *tn = after_dialect(json_string_value(dtid));
  v->dtype = -2;
  for (size_t i = 0; i < sizeof k_types / sizeof k_types[0]; i++) {
    if (strcmp(tn, k_types[i].pir) == 0) {
      v->dtype = k_types[i].dtype;
      v->dtype_name = k_types[i].name;
    }
  }
  if (v->dtype == -2) return fail(c, "%s: unknown element type \"%s\"", what, json_string_value(dtid));
  if (!json_is_array(dims)) return fail(c, "%s: dims are %s, expected an array", what, jtype(dims));
  if (json_array_size(dims) > IC_MAX_RANK) {
    return fail(c, "%s: %zu dims, at most %d supported", what, json_array_size(dims), IC_MAX_RANK);
  }
  v->ndim = (int)json_array_size(dims);
  for (int k = 0; k < v->ndim; k++) {
    json_t *e = json_array_get(dims, (size_t)k);
    if (!json_is_integer(e) || json_integer_value(e) < -1) {
      return fail(c, "%s: dim %d is %s, expected an integer >= -1", what, k,
                  json_is_integer(e) ? "negative" : jtype(e));
    }
    v->dims[k] = json_integer_value(e);
  }
  v->has_type = true;
  v->tensor = true;
  return IC_OK;
}

static pval *new_value(ctx *c, int64_t id) {
  pval *v = ic_arena_calloc(c->arena, 1, sizeof *v);
  if (!v) return NULL;
  v->id = id;
  v->block = c->block;
  char name[40];
  if (id < 0) snprintf(name, sizeof name, "%%arg%" PRId64, -id);
  else snprintf(name, sizeof name, "%%%" PRId64, id);
  v->name = ic_arena_strdup(c->arena, name);
  return v->name ? v : NULL;
}

/* Type TT into v; vectors get element values named "%ID.k". */
static ic_status read_type(ctx *c, const json_t *tt, pval *v, const char *what) {
  ic_status st = IC_OK;
  json_t *id = get(c, tt, "#", JSON_STRING, true, what, &st);
  if (!id) return st;
  const char *t = json_string_value(id);
  if (strcmp(t, "NULL") == 0) return IC_OK;
  t = after_dialect(t);
  if (strcmp(t, "t_dtensor") == 0) return read_dense_type(c, tt, v, what);
  if (strcmp(t, "t_dense_tensor_array") == 0) {
    /* [element dtype, element dims, layout] */
    if ((st = read_dense_type(c, tt, v, what))) return st;
    v->is_array = true;
    return IC_OK;
  }
  if (strcmp(t, "t_vec") == 0) {
    json_t *d = get(c, tt, "D", JSON_ARRAY, true, what, &st);
    if (!d) return st;
    v->is_vec = true;
    v->n_elems = json_array_size(d);
    v->elems = ic_arena_calloc(c->arena, v->n_elems ? v->n_elems : 1, sizeof *v->elems);
    if (!v->elems) return oom(c);
    for (size_t k = 0; k < v->n_elems; k++) {
      pval *e = new_value(c, v->id);
      if (!e) return oom(c);
      char name[48];
      snprintf(name, sizeof name, "%s.%zu", v->name, k);
      if (!(e->name = ic_arena_strdup(c->arena, name))) return oom(c);
      char ew[160];
      snprintf(ew, sizeof ew, "%s, element %zu", what, k);
      if ((st = read_type(c, json_array_get(d, k), e, ew))) return st;
      if (e->is_vec) return fail(c, "%s: a vector of vectors is not supported", ew);
      v->elems[k] = e;
    }
    return IC_OK;
  }
  return fail(c, "%s: type \"%s\" is not supported (dense tensors and vectors of them are)", what,
              json_string_value(id));
}

/* ---------------------------------------------------------------------------------------
 * Attributes
 * ------------------------------------------------------------------------------------- */

/* The attribute named `name` of op JSON `op` (its "A" list), or NULL. */
static json_t *op_attr(const json_t *op, const char *name) {
  json_t *a = json_object_get(op, "A");
  if (!json_is_array(a)) return NULL;
  size_t i;
  json_t *e;
  json_array_foreach(a, i, e) {
    json_t *n = json_object_get(e, "N");
    if (json_is_string(n) && strcmp(json_string_value(n), name) == 0) return json_object_get(e, "AT");
  }
  return NULL;
}

/* double -> float without undefined behaviour: out-of-range values become infinities, as an
 * IEEE conversion would give. */
static float to_f32(double v) {
  if (v > FLT_MAX) return INFINITY;
  if (v < -FLT_MAX) return -INFINITY;
  return (float)v;
}

/* A float attribute's number. The writer cannot put a non-finite value in JSON: it writes
 * {"#": "0.a_f64", "VD": "INF"} ("-INF", "NaN") instead of "D", and adata hands that string
 * here. */
static bool num_of(const json_t *d, double *out) {
  if (json_is_string(d)) {
    const char *s = json_string_value(d);
    if (strcmp(s, "INF") == 0) *out = INFINITY;
    else if (strcmp(s, "-INF") == 0) *out = -INFINITY;
    else if (strcmp(s, "NaN") == 0 || strcmp(s, "NAN") == 0 || strcmp(s, "nan") == 0) *out = NAN;
    else return false;
    return true;
  }
  if (!json_is_number(d)) return false;
  *out = json_number_value(d);
  return true;
}

/* An attribute's data: "D", or "VD" where a non-finite float stands (see num_of). */
static json_t *adata(const json_t *at) {
  json_t *d = json_object_get(at, "D");
  return d ? d : json_object_get(at, "VD");
}

/* The attribute kind after the dialect: "a_i32", "a_array", ... */
static const char *attr_kind(const json_t *at) {
  json_t *id = json_object_get(at, "#");
  return json_is_string(id) ? after_dialect(json_string_value(id)) : NULL;
}

/* Emit attribute `name` (JSON `at`) onto op; IC_OK and *skipped for kinds with no
 * ProgramDesc counterpart (place). */
static ic_status emit_attr(ctx *c, ic_builder_op *op, const char *name, const json_t *at) {
  const char *k = attr_kind(at);
  json_t *d = adata(at);
  if (!k || !d) return fail(c, "attribute '%s' is not an {\"#\": type, \"D\": data} object", name);
  double f;
  if (strcmp(k, "a_place") == 0 || strcmp(k, "a_type") == 0 || strcmp(k, "a_pointer") == 0) {
    return IC_OK;
  }
  if (strcmp(k, "a_bool") == 0) {
    if (!json_is_boolean(d)) goto bad;
    ic_builder_attr_bool(op, name, json_is_true(d));
  } else if (strcmp(k, "a_i32") == 0) {
    if (!json_is_integer(d) || json_integer_value(d) < INT32_MIN || json_integer_value(d) > INT32_MAX) goto bad;
    ic_builder_attr_int(op, name, (int32_t)json_integer_value(d));
  } else if (strcmp(k, "a_i64") == 0 || strcmp(k, "a_index") == 0) {
    if (!json_is_integer(d)) goto bad;
    ic_builder_attr_long(op, name, json_integer_value(d));
  } else if (strcmp(k, "a_f32") == 0) {
    if (!num_of(d, &f)) goto bad;
    ic_builder_attr_float(op, name, to_f32(f));
  } else if (strcmp(k, "a_f64") == 0) {
    if (!num_of(d, &f)) goto bad;
    ic_builder_attr_double(op, name, f);
  } else if (strcmp(k, "a_str") == 0 || strcmp(k, "a_datalayout") == 0) {
    if (!json_is_string(d)) goto bad;
    ic_builder_attr_string(op, name, json_string_value(d));
  } else if (strcmp(k, "a_dtype") == 0) {
    int dt;
    if (!json_is_string(d)) goto bad;
    if (!dtype_from_name(json_string_value(d), &dt)) {
      return fail(c, "attribute '%s': unknown data type \"%s\"", name, json_string_value(d));
    }
    ic_builder_attr_int(op, name, dt);
  } else if (strcmp(k, "a_intarray") == 0 || strcmp(k, "a_array") == 0) {
    if (!json_is_array(d)) goto bad;
    size_t n = json_array_size(d);
    bool intarray = strcmp(k, "a_intarray") == 0;
    const char *ek = intarray ? "a_i64" : n ? attr_kind(json_array_get(d, 0)) : "a_i32";
    if (!ek) goto bad;
    int64_t *iv = ic_arena_calloc(c->arena, n ? n : 1, sizeof *iv);
    double *fv = ic_arena_calloc(c->arena, n ? n : 1, sizeof *fv);
    bool *bv = ic_arena_calloc(c->arena, n ? n : 1, sizeof *bv);
    const char **sv = ic_arena_calloc(c->arena, n ? n : 1, sizeof *sv);
    if (!iv || !fv || !bv || !sv) return oom(c);
    for (size_t i = 0; i < n; i++) {
      json_t *e = json_array_get(d, i), *ed = intarray ? e : adata(e);
      const char *k2 = intarray ? "a_i64" : attr_kind(e);
      if (!k2 || strcmp(k2, ek) != 0 || !ed) {
        return fail(c, "attribute '%s': element %zu is not a %s like element 0", name, i, ek);
      }
      bool ok = strcmp(ek, "a_bool") == 0   ? json_is_boolean(ed)
                : strcmp(ek, "a_str") == 0  ? json_is_string(ed)
                : strncmp(ek, "a_f", 3) == 0 ? num_of(ed, &fv[i])
                                             : json_is_integer(ed);
      if (!ok) return fail(c, "attribute '%s': element %zu is %s, expected a %s", name, i, jtype(ed), ek);
      if (json_is_integer(ed)) iv[i] = json_integer_value(ed);
      if (json_is_number(ed)) fv[i] = json_number_value(ed);
      bv[i] = json_is_true(ed);
      sv[i] = json_is_string(ed) ? json_string_value(ed) : NULL;
    }
    if (strcmp(ek, "a_i32") == 0) {
      int32_t *v32 = ic_arena_calloc(c->arena, n ? n : 1, sizeof *v32);
      if (!v32) return oom(c);
      for (size_t i = 0; i < n; i++) {
        if (iv[i] < INT32_MIN || iv[i] > INT32_MAX) {
          return fail(c, "attribute '%s': element %zu does not fit an int32", name, i);
        }
        v32[i] = (int32_t)iv[i];
      }
      ic_builder_attr_ints(op, name, n, v32);
    } else if (strcmp(ek, "a_i64") == 0) {
      ic_builder_attr_longs(op, name, n, iv);
    } else if (strcmp(ek, "a_f32") == 0) {
      float *v32 = ic_arena_calloc(c->arena, n ? n : 1, sizeof *v32);
      if (!v32) return oom(c);
      for (size_t i = 0; i < n; i++) v32[i] = to_f32(fv[i]);
      ic_builder_attr_floats(op, name, n, v32);
    } else if (strcmp(ek, "a_f64") == 0) {
      ic_builder_attr_doubles(op, name, n, fv);
    } else if (strcmp(ek, "a_bool") == 0) {
      ic_builder_attr_bools(op, name, n, bv);
    } else if (strcmp(ek, "a_str") == 0) {
      ic_builder_attr_strings(op, name, n, sv);
    } else {
      return fail(c, "attribute '%s': arrays of %s are not supported", name, ek);
    }
  } else if (strcmp(k, "a_scalar") == 0) {
    /* ScalarAttribute: its data is itself a typed attribute. */
    const char *k2 = attr_kind(d);
    json_t *dd = adata(d);
    if (!k2 || !dd) goto bad;
    if (json_is_integer(dd) && strncmp(k2, "a_f", 3) != 0) {
      ic_builder_attr_scalar_long(op, name, json_integer_value(dd));
    } else if (num_of(dd, &f)) {
      ic_builder_attr_scalar_double(op, name, f);
    } else if (json_is_boolean(dd)) {
      ic_builder_attr_scalar_long(op, name, json_is_true(dd));
    } else {
      goto bad;
    }
  } else {
    return fail(c, "attribute '%s' has type \"%s\", which icore does not read", name,
                json_string_value(json_object_get(at, "#")));
  }
  return IC_OK;
bad:
  return fail(c, "attribute '%s' of type %s holds %s", name, k, jtype(d));
}

/* Attribute renames of an op map: the new name of `name`, NULL to drop it. */
static const char *rename_attr(const ic_pir_opmap *m, const char *name, char *buf, size_t len) {
  if (strcmp(name, "struct_name") == 0 || strcmp(name, "op_callstack") == 0 ||
      strcmp(name, "stop_gradient") == 0 || strcmp(name, "persistable") == 0) {
    return NULL;
  }
  size_t nl = strlen(name);
  for (const char *p = m->attrs; *p;) {
    const char *end = strchr(p, ';');
    size_t l = end ? (size_t)(end - p) : strlen(p);
    const char *gt = memchr(p, '>', l);
    if (gt && (size_t)(gt - p) == nl && strncmp(p, name, nl) == 0) {
      size_t tl = l - nl - 1;
      if (tl == 0) return NULL;
      if (tl >= len) tl = len - 1;
      memcpy(buf, gt + 1, tl);
      buf[tl] = '\0';
      return buf;
    }
    p = end ? end + 1 : p + l;
  }
  return name;
}

/* ---------------------------------------------------------------------------------------
 * Operands
 * ------------------------------------------------------------------------------------- */

/* Operand k of op JSON: its value (NULL for the null value). */
static ic_status operand(ctx *c, const json_t *op, size_t k, pval **out) {
  *out = NULL;
  ic_status st = IC_OK;
  json_t *ins = json_object_get(op, "I");
  json_t *e = json_array_get(ins, k);
  char what[48];
  snprintf(what, sizeof what, "operand %zu", k);
  json_t *id = get(c, e, "%", JSON_INTEGER, true, what, &st);
  if (!id) return st;
  int64_t vid = json_integer_value(id);
  if (vid == 0) return IC_OK;
  pval *v = find_value(c, vid);
  if (!v || !block_visible(c, v->block, c->block)) {
    return fail(c, "operand %zu is value %%%" PRId64 ", which is not defined before this op in "
                   "block %d or an enclosing block (a dangling id, a cycle, or ops out of order)",
                k, vid, c->block);
  }
  *out = v;
  return IC_OK;
}

/* Parse a spec "=K:attr|T|L" or "Slot" or "Slot*". */
typedef struct spec {
  char kind;        /* 0 plain slot, 'L', 'i', 'f' */
  bool multi;       /* Slot* */
  char attr[128];
  char slot[128];   /* tensor slot ("" none) */
  char list[128];   /* vector slot ("" none) */
} spec;

static void parse_spec(const char *s, size_t len, spec *sp) {
  memset(sp, 0, sizeof *sp);
  char buf[128];
  if (len >= sizeof buf) len = sizeof buf - 1;
  memcpy(buf, s, len);
  buf[len] = '\0';
  if (buf[0] == '=') {
    sp->kind = buf[1];
    char *p = buf + 3, *bar = strchr(p, '|');
    if (bar) *bar = '\0';
    snprintf(sp->attr, sizeof sp->attr, "%s", p);
    if (bar) {
      char *bar2 = strchr(bar + 1, '|');
      if (bar2) {
        *bar2 = '\0';
        snprintf(sp->list, sizeof sp->list, "%s", bar2 + 1);
      }
      snprintf(sp->slot, sizeof sp->slot, "%s", bar + 1);
    }
    return;
  }
  size_t n = strlen(buf);
  if (n && buf[n - 1] == '*') {
    sp->multi = true;
    buf[n - 1] = '\0';
  }
  snprintf(sp->slot, sizeof sp->slot, "%s", buf);
}

/* The k-th ';'-separated field of s: pointer and length; false past the end. */
static bool field(const char *s, size_t k, const char **p, size_t *len) {
  if (!*s) return false;
  for (size_t i = 0; i < k; i++) {
    s = strchr(s, ';');
    if (!s) return false;
    s++;
  }
  const char *end = strchr(s, ';');
  *p = s;
  *len = end ? (size_t)(end - s) : strlen(s);
  return true;
}

static size_t n_fields(const char *s) {
  if (!*s) return 0;
  size_t n = 1;
  for (; *s; s++) n += *s == ';';
  return n;
}

static ic_status declare(ctx *c, pval *v);

/* Slot args for a list of values. */
static ic_status emit_values(ctx *c, ic_builder_op *bop, bool input, const char *slot, size_t n,
                             pval **vs) {
  const char **names = ic_arena_calloc(c->arena, n ? n : 1, sizeof *names);
  if (!names) return oom(c);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    pval *v = resolve(vs[i]);
    if (!input) {
      /* a result typed NULL is an optional output the op does not produce this time
       * (fused_rms_norm_quant's residual_out without a residual): left out */
      if (!v->is_vec && !v->has_type && n == 1) return IC_OK;
      ic_status st = declare(c, v);
      if (st) return st;
    }
    names[m++] = v->name;
  }
  if (input) ic_builder_input(bop, slot, m, names);
  else ic_builder_output(bop, slot, m, names);
  return IC_OK;
}

/* Mark v (or a vector's elements) as read as a tensor. */
static void mark_use(pval *v) {
  v = resolve(v);
  if (v->is_vec) {
    for (size_t i = 0; i < v->n_elems; i++) resolve(v->elems[i])->tensor_use = true;
  } else {
    v->tensor_use = true;
  }
}

/* One operand by its spec: first walk marks uses, second walk emits (bop != NULL). */
static ic_status do_operand(ctx *c, const ic_pir_opmap *m, ic_builder_op *bop, size_t k, pval *v,
                            const spec *sp, bool *reduce_all) {
  if (!v) return IC_OK; /* the null value: an absent optional input */
  pval *r = resolve(v);
  if (sp->kind) {
    bool folds = (sp->kind == 'L' && r->konst == 2) ||
                 ((sp->kind == 'i' || sp->kind == 'f') && r->konst == 1);
    if (folds) {
      if (!bop) return IC_OK;
      if (sp->kind == 'L') {
        ic_builder_attr_longs(bop, sp->attr, r->kn, r->kints);
        if (reduce_all && r->kn == 0) *reduce_all = true;
      } else if (sp->kind == 'i') {
        if (r->kval != floor(r->kval) || fabs(r->kval) > 2147483647.0) {
          return fail(c, "operand %zu: constant %g for '%s' is not an int32", k, r->kval, sp->attr);
        }
        ic_builder_attr_int(bop, sp->attr, (int32_t)r->kval);
      } else {
        ic_builder_attr_float(bop, sp->attr, to_f32(r->kval));
      }
      return IC_OK;
    }
    /* An IntArray built in the program as stack([s0, s1, ..]) of one-element tensors (a
     * loop index, a shape read at run time): its elements feed the list slot, as the
     * ProgramDesc op reads them. */
    pval *lst = r->is_vec ? r : (r->stacked && sp->list[0]) ? resolve(r->stacked) : NULL;
    /* Paddle's translator of a ProgramDesc puts a legacy op's whole-tensor input (reshape2's
     * Shape: one 1-D tensor of every dim) in a builtin.combine of that one tensor, and
     * Paddle reads all of its elements: it goes to the whole-tensor slot, where a tensor of
     * one element means what the list slot would. */
    if (r->is_vec && r->n_elems == 1 && sp->slot[0]) {
      const pval *e = resolve(r->elems[0]);
      if (e->has_type && !e->is_vec && e->ndim == 1 && e->dims[0] != 1) {
        r = resolve(r->elems[0]);
        lst = NULL;
      }
    }
    const char *slot = lst ? sp->list : sp->slot;
    if (!slot[0]) {
      return fail(c, "operand %zu ('%s') must be a constant (from pd_op.%s); it is value %s",
                  k, sp->attr, sp->kind == 'L' ? "full_int_array" : "full", r->name);
    }
    if (!bop) {
      if (lst) {
        for (size_t e = 0; e < lst->n_elems; e++) mark_use(lst->elems[e]);
      } else {
        mark_use(r);
      }
      return IC_OK;
    }
    if (lst && strcmp(m->type, "split") == 0) {
      /* split reads SectionsTensorList only when 'sections' is set: the -1 placeholders
       * Paddle's own static split writes for tensor sections. */
      int64_t *ph = ic_arena_calloc(c->arena, lst->n_elems ? lst->n_elems : 1, sizeof *ph);
      if (!ph) return oom(c);
      for (size_t e = 0; e < lst->n_elems; e++) ph[e] = -1;
      ic_builder_attr_longs(bop, sp->attr, lst->n_elems, ph);
    }
    return lst ? emit_values(c, bop, true, slot, lst->n_elems, lst->elems)
               : emit_values(c, bop, true, slot, 1, &r);
  }
  if (!sp->slot[0]) return IC_OK;
  if (r->is_vec && !sp->multi) {
    return fail(c, "operand %zu is a vector (%s), but %s reads one tensor in '%s'", k, r->name,
                m->type, sp->slot);
  }
  if (!bop) {
    mark_use(r);
    return IC_OK;
  }
  return r->is_vec ? emit_values(c, bop, true, sp->slot, r->n_elems, r->elems)
                   : emit_values(c, bop, true, sp->slot, 1, &r);
}

/* ---------------------------------------------------------------------------------------
 * Walks
 * ------------------------------------------------------------------------------------- */

static ic_status declare(ctx *c, pval *v) {
  if (v->declared || !c->b) return IC_OK;
  if (v->is_vec) {
    for (size_t i = 0; i < v->n_elems; i++) {
      ic_status st = declare(c, resolve(v->elems[i]));
      if (st) return st;
    }
    v->declared = true;
    return IC_OK;
  }
  if (!v->has_type) return fail(c, "value %s has no type, yet an op writes it", v->name);
  if (v->is_array) {
    ic_builder_var_kind(c->b, v->block, v->name, IC_VAR_LOD_TENSOR_ARRAY, false);
    v->declared = true;
    return IC_OK;
  }
  if (v->dtype < 0) {
    return ic_err_set(c->err, IC_ERR_UNSUPPORTED,
                      "%s: op #%ld (%s) in block %d: value %s is %s, which icore does not support",
                      c->origin, c->op, c->opname ? c->opname : "?", c->block, v->name,
                      v->dtype_name);
  }
  ic_builder_var(c->b, v->block, v->name, (ic_dtype)v->dtype, v->ndim, v->dims, v->persistable);
  v->declared = true;
  return IC_OK;
}

/* Whether a builtin.parameter's value is persistable, from its result attributes "OA":
 * compressed, [persistable, stop_gradient, trainable] as 0/1 (weights [1, 0, 1], batch-norm
 * statistics [1, 1, 0]); else [{"N": "persistable", "AT": {"D": bool or [bool]}}, ...].
 * Paddle saves only persistable ones: pd_op.rnn's "..dropout_state__non_persistable" is a
 * parameter op with persistable 0, absent from the .pdiparams file. Default: persistable. */
static bool param_persistable(const json_t *op) {
  const json_t *oa = json_object_get(op, "OA");
  const json_t *first = json_array_get(oa, 0);
  if (json_is_integer(first)) return json_integer_value(first) != 0;
  if (json_is_boolean(first)) return json_is_true(first);
  for (size_t i = 0; i < json_array_size(oa); i++) {
    const json_t *e = json_array_get(oa, i);
    const json_t *n = json_object_get(e, "N");
    if (!json_is_string(n) || strcmp(json_string_value(n), "persistable") != 0) continue;
    const json_t *d = json_object_get(json_object_get(e, "AT"), "D");
    if (json_is_array(d)) d = json_array_get(d, 0);
    if (json_is_boolean(d)) return json_is_true(d);
    if (json_is_object(d)) d = json_object_get(d, "D"); /* [{"#": "0.a_bool", "D": b}] */
    if (json_is_boolean(d)) return json_is_true(d);
  }
  return true;
}

/* Define the results of op (first walk). `single` accepts "O" as one object (the
 * compressed parameter op). */
static ic_status define_results(ctx *c, const json_t *op, pval ***out, size_t *n_out) {
  json_t *o = json_object_get(op, "O");
  size_t n = json_is_array(o) ? json_array_size(o) : json_is_object(o) ? 1 : 0;
  if (o && !json_is_array(o) && !json_is_object(o)) {
    return fail(c, "\"O\" is %s, expected an array of results", jtype(o));
  }
  pval **vs = ic_arena_calloc(c->arena, n ? n : 1, sizeof *vs);
  if (!vs) return oom(c);
  for (size_t k = 0; k < n; k++) {
    json_t *e = json_is_array(o) ? json_array_get(o, k) : o;
    char what[48];
    snprintf(what, sizeof what, "result %zu", k);
    ic_status st = IC_OK;
    json_t *id = get(c, e, "%", JSON_INTEGER, true, what, &st);
    if (!id) return st;
    int64_t vid = json_integer_value(id);
    if (vid == 0) continue; /* a null result */
    if (vid < 0) return fail(c, "%s has id %" PRId64 "; negative ids are block arguments", what, vid);
    if (find_value(c, vid)) return fail(c, "%s: value %%%" PRId64 " is defined twice", what, vid);
    pval *v = new_value(c, vid);
    if (!v) return oom(c);
    json_t *tt = json_object_get(e, "TT");
    if (tt && (st = read_type(c, tt, v, what))) return st;
    const char *key = id_key(c, vid);
    if (!key || !ic_strmap_put(&c->values, key, v)) return oom(c);
    vs[k] = v;
  }
  *out = vs;
  *n_out = n;
  return IC_OK;
}

/* The results of op as values (second walk). */
static ic_status results(ctx *c, const json_t *op, pval ***out, size_t *n_out) {
  json_t *o = json_object_get(op, "O");
  size_t n = json_is_array(o) ? json_array_size(o) : json_is_object(o) ? 1 : 0;
  pval **vs = ic_arena_calloc(c->arena, n ? n : 1, sizeof *vs);
  if (!vs) return oom(c);
  for (size_t k = 0; k < n; k++) {
    json_t *e = json_is_array(o) ? json_array_get(o, k) : o;
    int64_t vid = json_integer_value(json_object_get(e, "%"));
    vs[k] = vid ? find_value(c, vid) : NULL;
  }
  *out = vs;
  *n_out = n;
  return IC_OK;
}

static ic_status walk_region(ctx *c, const json_t *region, int parent, int *first_block,
                             int *n_blocks);

static ic_status int_attr(ctx *c, const json_t *op, const char *name, int64_t *v) {
  json_t *at = op_attr(op, name);
  json_t *d = at ? json_object_get(at, "D") : NULL;
  if (!json_is_integer(d)) return fail(c, "attribute '%s' is missing or not an integer", name);
  *v = json_integer_value(d);
  return IC_OK;
}

static ic_status str_attr(ctx *c, const json_t *op, const char *name, const char **v) {
  json_t *at = op_attr(op, name);
  json_t *d = at ? json_object_get(at, "D") : NULL;
  if (!json_is_string(d)) return fail(c, "attribute '%s' is missing or not a string", name);
  *v = json_string_value(d);
  return IC_OK;
}

/* full / full_int_array: record the constant (first walk); emit the op when some op reads
 * it as a tensor (second walk). */
static ic_status do_constant(ctx *c, const json_t *op, bool int_array, pval *v) {
  ic_status st;
  if (!v) return fail(c, "has no result");
  json_t *val = op_attr(op, "value");
  json_t *d = val ? adata(val) : NULL;
  json_t *dt = op_attr(op, "dtype");
  int dtype = -1;
  if (!dt || !json_is_string(json_object_get(dt, "D")) ||
      !dtype_from_name(json_string_value(json_object_get(dt, "D")), &dtype) || dtype < 0) {
    return fail(c, "attribute 'dtype' is missing or not a known data type");
  }
  if (!c->b) {
    if (int_array) {
      if (!json_is_array(d)) return fail(c, "attribute 'value' is missing or not an array");
      v->kn = json_array_size(d);
      v->kints = ic_arena_calloc(c->arena, v->kn ? v->kn : 1, sizeof *v->kints);
      if (!v->kints) return oom(c);
      for (size_t i = 0; i < v->kn; i++) {
        json_t *e = json_array_get(d, i), *ed = json_object_get(e, "D");
        if (!json_is_integer(ed)) return fail(c, "attribute 'value': element %zu is not an integer", i);
        v->kints[i] = json_integer_value(ed);
      }
      v->konst = 2;
    } else {
      double x;
      if (json_is_object(d)) d = adata(d); /* a_scalar wraps a typed value */
      if (!d || !num_of(d, &x)) {
        return fail(c, "attribute 'value' is %s, expected a number", d ? jtype(d) : "missing");
      }
      json_t *shape = op_attr(op, "shape");
      json_t *sd = shape ? json_object_get(shape, "D") : NULL;
      if (!json_is_array(sd)) return fail(c, "attribute 'shape' is missing or not an int array");
      bool one = true; /* a single element: every dim is 1 */
      size_t i;
      json_t *e;
      json_array_foreach(sd, i, e) {
        if (!json_is_integer(e)) return fail(c, "attribute 'shape': element %zu is not an integer", i);
        one = one && json_integer_value(e) == 1;
      }
      v->kval = x;
      if (one) v->konst = 1;
    }
    return IC_OK;
  }
  if (!v->tensor_use) return IC_OK;
  ic_builder_op *bop;
  if (int_array) {
    /* No fill op writes a list of values; assign_value is the ProgramDesc op for it. */
    bop = ic_builder_add_op(c->b, c->block, "assign_value");
    ic_builder_attr_ints(bop, "shape", 1, (int32_t[]){(int32_t)v->kn});
    ic_builder_attr_int(bop, "dtype", dtype);
    if (dtype == IC_INT32) {
      int32_t *v32 = ic_arena_calloc(c->arena, v->kn ? v->kn : 1, sizeof *v32);
      if (!v32) return oom(c);
      for (size_t i = 0; i < v->kn; i++) v32[i] = (int32_t)v->kints[i];
      ic_builder_attr_ints(bop, "int32_values", v->kn, v32);
    } else {
      ic_builder_attr_longs(bop, "int64_values", v->kn, v->kints);
    }
  } else {
    bop = ic_builder_add_op(c->b, c->block, "fill_constant");
    json_t *shape = op_attr(op, "shape");
    if ((st = emit_attr(c, bop, "shape", shape))) return st;
    ic_builder_attr_int(bop, "dtype", dtype);
    ic_builder_attr_float(bop, "value", to_f32(v->kval));
    char sv[40];
    snprintf(sv, sizeof sv, "%.17g", v->kval);
    ic_builder_attr_string(bop, "str_value", sv);
  }
  return emit_values(c, bop, false, "Out", 1, &v);
}

/* ---------------------------------------------------------------------------------------
 * Control flow: pd_op.if and pd_op.while as Paddle's legacy programs have them
 * ------------------------------------------------------------------------------------- */

/* A fresh tensor value named "<base><suffix>" of type `like` (declared in the current block
 * when first written). */
static pval *derived(ctx *c, const pval *like, const char *base, const char *suffix) {
  pval *v = new_value(c, 0);
  if (!v) return NULL;
  char name[160];
  snprintf(name, sizeof name, "%s%s", base, suffix);
  if (!(v->name = ic_arena_strdup(c->arena, name))) return NULL;
  v->has_type = v->tensor = true;
  v->dtype = like->dtype;
  v->dtype_name = like->dtype_name;
  v->ndim = like->ndim;
  memcpy(v->dims, like->dims, sizeof v->dims);
  return v;
}

static ic_status emit_assign(ctx *c, pval *from, pval *to) {
  ic_builder_op *a = ic_builder_add_op(c->b, c->block, "assign");
  ic_status st = emit_values(c, a, true, "X", 1, &from);
  return st ? st : emit_values(c, a, false, "Out", 1, &to);
}

static ic_status cf_tensor_results(ctx *c, pval **vs, size_t n, const char *what) {
  for (size_t k = 0; k < n; k++) {
    if (!vs[k] || resolve(vs[k])->is_vec || !resolve(vs[k])->has_type) {
      return fail(c, "%s %zu is not a tensor; icore translates tensor values only", what, k);
    }
  }
  return IC_OK;
}

/* One region with one block: the block's index after walking it with frame f. */
static ic_status cf_region(ctx *c, const json_t *r, const cfframe *f, int *blk) {
  const int block = c->block;
  const long opindex = c->op;
  const char *opname = c->opname;
  const cfframe *saved = c->cf;
  int fb = -1, nb = 0;
  c->cf = f;
  ic_status st = walk_region(c, r, block, &fb, &nb);
  c->cf = saved;
  c->block = block;
  c->op = opindex;
  c->opname = opname;
  if (st) return st;
  if (nb != 1) return fail(c, "a region has %d blocks, expected 1", nb);
  *blk = fb;
  return IC_OK;
}

/* pd_op.if(cond) {true} {false} -> results, as paddle.static.nn.cond writes it:
 *   %ID.not = logical_not(cond); %ID.mask = cast(cond, int32)
 *   conditional_block(Cond = cond) {true branch; its yield assigns %R.t}
 *   conditional_block(Cond = %ID.not) {false branch; its yield assigns %R.f}
 *   R = select_input(X = [%R.f, %R.t], Mask = %ID.mask)   for each result R
 * (the blocks' Input and Out are left to analysis, which widens them to what they touch). */
static ic_status translate_if(ctx *c, const json_t *regions, pval **in, size_t n_in, pval **out,
                              size_t n_out) {
  if (json_array_size(regions) != 2) {
    return fail(c, "has %zu regions, expected 2 (true and false)", json_array_size(regions));
  }
  if (n_in != 1 || !in[0] || resolve(in[0])->is_vec) return fail(c, "expected one condition operand");
  ic_status st = cf_tensor_results(c, out, n_out, "result");
  if (st) return st;
  pval *cond = resolve(in[0]);
  char base[64];
  snprintf(base, sizeof base, "%%if%ld.%d", c->op, c->block);
  pval *notc = derived(c, cond, base, ".not"), *mask = derived(c, cond, base, ".mask");
  pval **br[2];
  br[0] = ic_arena_calloc(c->arena, n_out ? n_out : 1, sizeof **br);
  br[1] = ic_arena_calloc(c->arena, n_out ? n_out : 1, sizeof **br);
  if (!notc || !mask || !br[0] || !br[1]) return oom(c);
  mask->dtype = IC_INT32;
  for (size_t k = 0; k < n_out; k++) {
    const pval *r = resolve(out[k]);
    if (!(br[0][k] = derived(c, r, r->name, ".t")) || !(br[1][k] = derived(c, r, r->name, ".f"))) {
      return oom(c);
    }
    if ((st = declare(c, br[0][k])) || (st = declare(c, br[1][k]))) return st;
  }
  ic_builder_op *op = ic_builder_add_op(c->b, c->block, "logical_not");
  if ((st = emit_values(c, op, true, "X", 1, &cond)) || (st = emit_values(c, op, false, "Out", 1, &notc))) {
    return st;
  }
  op = ic_builder_add_op(c->b, c->block, "cast");
  ic_builder_attr_int(op, "in_dtype", cond->dtype);
  ic_builder_attr_int(op, "out_dtype", IC_INT32);
  if ((st = emit_values(c, op, true, "X", 1, &cond)) || (st = emit_values(c, op, false, "Out", 1, &mask))) {
    return st;
  }
  ic_builder_op *cb[2];
  for (int b = 0; b < 2; b++) {
    cb[b] = ic_builder_add_op(c->b, c->block, "conditional_block");
    ic_builder_attr_bool(cb[b], "is_scalar_condition", true);
    if ((st = emit_values(c, cb[b], true, "Cond", 1, b ? &notc : &cond))) return st;
  }
  for (int b = 0; b < 2; b++) {
    const cfframe f = {.is_while = false, .n = n_out, .dst = br[b]};
    int blk;
    if ((st = cf_region(c, json_array_get(regions, (size_t)b), &f, &blk))) return st;
    ic_builder_attr_block(cb[b], "sub_block", blk);
  }
  for (size_t k = 0; k < n_out; k++) {
    op = ic_builder_add_op(c->b, c->block, "select_input");
    pval *xs[2] = {br[1][k], br[0][k]};
    if ((st = emit_values(c, op, true, "X", 2, xs)) || (st = emit_values(c, op, true, "Mask", 1, &mask)) ||
        (st = emit_values(c, op, false, "Out", 1, &out[k]))) {
      return st;
    }
  }
  return IC_OK;
}

/* pd_op.while(cond, init...) {body(args...); yield(cond', next...)} -> results, as Paddle's
 * legacy while: the results are the loop variables (R = assign(init) before the loop, the
 * body's arguments read R), the condition a variable %whileOP.B.cond, and the body's yield
 * assigns both (through copies %R.next when a yielded value is another loop variable, so a
 * swap reads the old values). */
static ic_status translate_while(ctx *c, const json_t *regions, pval **in, size_t n_in,
                                 pval **out, size_t n_out) {
  if (json_array_size(regions) != 1) return fail(c, "has %zu regions, expected 1", json_array_size(regions));
  if (n_in != n_out + 1 || !in[0] || resolve(in[0])->is_vec) {
    return fail(c, "has %zu operands and %zu results, expected a condition and one initial "
                "value per result", n_in, n_out);
  }
  ic_status st = cf_tensor_results(c, out, n_out, "result");
  if (!st) st = cf_tensor_results(c, in + 1, n_in - 1, "initial value");
  if (st) return st;
  const json_t *blocks = json_object_get(json_array_get(regions, 0), "blocks");
  const json_t *args = json_object_get(json_array_get(blocks, 0), "args");
  if (json_array_size(blocks) != 1 || json_array_size(args) != n_out) {
    return fail(c, "its body has %zu block(s) with %zu arguments, expected 1 block with %zu",
                json_array_size(blocks), json_array_size(args), n_out);
  }
  pval *cond = resolve(in[0]);
  char base[64];
  snprintf(base, sizeof base, "%%while%ld.%d", c->op, c->block);
  pval *cv = derived(c, cond, base, ".cond");
  if (!cv) return oom(c);
  for (size_t k = 0; k < n_out; k++) {
    pval *arg = find_value(c, json_integer_value(json_object_get(json_array_get(args, k), "#")));
    if (!arg) return fail(c, "its body's argument %zu is not defined", k);
    arg->alias = resolve(out[k]);
    if ((st = emit_assign(c, in[k + 1], out[k]))) return st;
  }
  if ((st = emit_assign(c, cond, cv))) return st;
  ic_builder_op *w = ic_builder_add_op(c->b, c->block, "while");
  ic_builder_attr_bool(w, "is_test", true);
  if ((st = emit_values(c, w, true, "Condition", 1, &cv))) return st;
  const cfframe f = {.is_while = true, .n = n_out, .dst = out, .cond = cv};
  int blk;
  if ((st = cf_region(c, json_array_get(regions, 0), &f, &blk))) return st;
  ic_builder_attr_block(w, "sub_block", blk);
  return IC_OK;
}

/* The cf.yield ending an if branch or a while body (c->cf). */
static ic_status translate_yield(ctx *c, pval **in, size_t n_in) {
  const cfframe *f = c->cf;
  const size_t off = f->is_while ? 1 : 0;
  if (n_in != f->n + off) {
    return fail(c, "yields %zu values, expected %zu", n_in, f->n + off);
  }
  ic_status st = cf_tensor_results(c, in, n_in, "yielded value");
  if (st) return st;
  /* A while's next values that read another loop variable go through copies first. */
  bool copy = false;
  for (size_t k = 0; f->is_while && k < f->n; k++) {
    for (size_t j = 0; j < f->n; j++) {
      if (j != k && resolve(in[k + off]) == resolve(f->dst[j])) copy = true;
    }
  }
  pval **src = in + off;
  if (copy) {
    src = ic_arena_calloc(c->arena, f->n ? f->n : 1, sizeof *src);
    if (!src) return oom(c);
    for (size_t k = 0; k < f->n; k++) {
      const pval *r = resolve(f->dst[k]);
      if (!(src[k] = derived(c, r, r->name, ".next"))) return oom(c);
      if ((st = emit_assign(c, in[k + off], src[k]))) return st;
    }
  }
  for (size_t k = 0; k < f->n; k++) {
    if (resolve(src[k]) == resolve(f->dst[k])) continue; /* unchanged loop variable */
    if ((st = emit_assign(c, src[k], f->dst[k]))) return st;
  }
  if (f->is_while && (st = emit_assign(c, in[0], f->cond))) return st;
  return IC_OK;
}

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

/* builtin.parameter ("p" compressed): a parameter, by name; one variable per name. */
static ic_status tr_parameter(ctx *c, const json_t *op, const pir_opargs *oa) {
  pval *out0 = oa->out0;
  bool first = oa->first;
  const char *cname = oa->cname;
  ic_status st = IC_OK;
  const char *pname = NULL;
  json_t *a = json_object_get(op, "A");
  if (strcmp(cname, "p") == 0) {
    json_t *nj = json_array_get(a, 3);
    if (!json_is_string(nj)) return fail(c, "\"A\" must be [.., .., .., NAME] with a string name");
    pname = json_string_value(nj);
  } else if ((st = str_attr(c, op, "parameter_name", &pname))) {
    return st;
  }
  if (!out0) return fail(c, "has no result");
  if (first) {
    out0->name = pname;
    out0->fixed = true;
    out0->persistable = param_persistable(op);
    return IC_OK;
  }
  /* One variable per name: Paddle emits a parameter op per use of some shared ones
   * (each pd_op.rnn reads its own op for "dropout_state__non_persistable"). */
  if (ic_strmap_get(&c->params, pname)) {
    out0->declared = true;
    return IC_OK;
  }
  if (!ic_strmap_put(&c->params, pname, out0)) return oom(c);
  return declare(c, out0);
}

/* builtin.combine: a vector of values (an op's list operand), kept as a value of its own. */
static ic_status tr_combine(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  pval *out0 = oa->out0;
  bool first = oa->first;
  if (!first) return IC_OK;
  if (!out0) return fail(c, "has no result");
  out0->is_vec = true;
  out0->n_elems = n_in;
  out0->elems = ic_arena_calloc(c->arena, n_in ? n_in : 1, sizeof *out0->elems);
  if (!out0->elems) return oom(c);
  for (size_t k = 0; k < n_in; k++) {
    if (!in[k]) return fail(c, "operand %zu is the null value", k);
    if (resolve(in[k])->is_vec) return fail(c, "operand %zu is a vector; vectors of vectors are not supported", k);
    out0->elems[k] = in[k];
  }
  return IC_OK;
}

/* builtin.split: a vector's elements as results, each an alias of its element. */
static ic_status tr_split(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  pval **out = oa->out;
  size_t n_out = oa->n_out;
  bool first = oa->first;
  if (!first) return IC_OK;
  pval *vec = n_in == 1 && in[0] ? resolve(in[0]) : NULL;
  if (!vec || !vec->is_vec) return fail(c, "expected one vector operand");
  if (vec->n_elems != n_out) {
    return fail(c, "splits a vector of %zu into %zu results", vec->n_elems, n_out);
  }
  for (size_t k = 0; k < n_out; k++) {
    if (out[k]) out[k]->alias = vec->elems[k];
  }
  return IC_OK;
}

/* An empty tensor array: a LOD_TENSOR_ARRAY variable, no op (as fluid's create_array). */
static ic_status tr_create_array(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  size_t n_out = oa->n_out;
  pval *out0 = oa->out0;
  bool first = oa->first;
  if (n_out != 1 || !out0 || !out0->is_array) return fail(c, "expected one tensor-array result");
  return first ? IC_OK : declare(c, out0);
}

/* array_write_(array, x, i): write_to_array into the array's variable; the result is
 * that same array (the op is inplace), so it names the same variable. */
static ic_status tr_array_write(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  size_t n_out = oa->n_out;
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (n_in != 3 || !in[0] || !in[1] || !in[2] || n_out != 1 || !out0) {
    return fail(c, "expected operands (array, x, i) and one result");
  }
  pval *arr = resolve(in[0]);
  if (!arr->is_array) return fail(c, "operand 0 (%s) is not a tensor array", arr->name);
  if (first) {
    out0->alias = arr;
    mark_use(in[1]);
    mark_use(in[2]);
    return IC_OK;
  }
  if ((st = declare(c, arr))) return st;
  ic_builder_op *bop = ic_builder_add_op(c->b, c->block, "write_to_array");
  if ((st = emit_values(c, bop, true, "X", 1, &in[1]))) return st;
  if ((st = emit_values(c, bop, true, "I", 1, &in[2]))) return st;
  return emit_values(c, bop, false, "Out", 1, &arr);
}

/* array[-k] (a Python list's x[-1] under to_static): read_from_array takes no negative
 * index, so I = lod_array_length(array) - k, as the phi kernel counts from the end. */
static ic_status tr_array_read_back(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (first) {
    mark_use(in[0]);
    return IC_OK;
  }
  pval *len = new_value(c, out0->id), *idx = new_value(c, out0->id);
  if (!len || !idx) return oom(c);
  char tn[48];
  snprintf(tn, sizeof tn, "%s.len", out0->name);
  if (!(len->name = ic_arena_strdup(c->arena, tn))) return oom(c);
  snprintf(tn, sizeof tn, "%s.idx", out0->name);
  if (!(idx->name = ic_arena_strdup(c->arena, tn))) return oom(c);
  len->has_type = len->tensor = idx->has_type = idx->tensor = true;
  len->dtype = idx->dtype = IC_INT64;
  len->ndim = idx->ndim = 1;
  len->dims[0] = idx->dims[0] = 1;
  ic_builder_op *lo = ic_builder_add_op(c->b, c->block, "lod_array_length");
  if ((st = emit_values(c, lo, true, "X", 1, &in[0])) ||
      (st = emit_values(c, lo, false, "Out", 1, &len))) {
    return st;
  }
  ic_builder_op *sc = ic_builder_add_op(c->b, c->block, "scale");
  ic_builder_attr_float(sc, "scale", 1.0f);
  ic_builder_attr_float(sc, "bias", (float)resolve(in[1])->kints[0]);
  ic_builder_attr_bool(sc, "bias_after_scale", true);
  if ((st = emit_values(c, sc, true, "X", 1, &len)) ||
      (st = emit_values(c, sc, false, "Out", 1, &idx))) {
    return st;
  }
  ic_builder_op *rd = ic_builder_add_op(c->b, c->block, "read_from_array");
  if ((st = emit_values(c, rd, true, "X", 1, &in[0])) ||
      (st = emit_values(c, rd, true, "I", 1, &idx))) {
    return st;
  }
  return emit_values(c, rd, false, "Out", 1, &out0);
}

/* data (what save_inference_model and jit.save write) or feed: a feed target by name */
static ic_status tr_data(ctx *c, const json_t *op, const pir_opargs *oa) {
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  const char *dname;
  if ((st = str_attr(c, op, "name", &dname))) return st;
  if (!out0) return fail(c, "has no result");
  if (first) {
    out0->name = dname;
    out0->fixed = true;
    return IC_OK;
  }
  if ((st = declare(c, out0))) return st;
  ic_builder_feed(c->b, out0->name);
  return IC_OK;
}

/* pd_op.fetch: a fetch target (column `col`), emitted at the end in column order. */
static ic_status tr_fetch(ctx *c, const json_t *op, const pir_opargs *oa) {
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (n_in != 1 || !in[0]) return fail(c, "expected one operand");
  pval *v = resolve(in[0]);
  if (v->is_vec) return fail(c, "fetches a vector");
  if (c->block != 0) return fail(c, "fetch ops must be in block 0");
  if (!first) return IC_OK; /* emitted at the end, by col */
  const char *fname;
  int64_t col = 0;
  if ((st = str_attr(c, op, "name", &fname)) || (st = int_attr(c, op, "col", &col))) return st;
  if (col < 0 || col > 1000000) return fail(c, "attribute 'col' is %" PRId64, col);
  if (!v->fixed) {
    v->name = fname;
    v->fixed = true;
  }
  v->tensor_use = true;
  if (c->n_fetch == c->cap_fetch) {
    size_t nc = c->cap_fetch ? c->cap_fetch * 2 : 8;
    fetchref *nf = realloc(c->fetch, nc * sizeof *nf);
    if (!nf) return oom(c);
    c->fetch = nf;
    c->cap_fetch = nc;
  }
  c->fetch[c->n_fetch++] = (fetchref){col, v};
  return IC_OK;
}

/* arange(start, end, step, dtype): Paddle reads the three tensors (float64 from the
 * Python API) as the output dtype; the ProgramDesc range op computes in the dtype of
 * Start. So each operand is cast to `dtype` ("%ID.start" ...), then range. */
static ic_status tr_arange(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  size_t n_out = oa->n_out;
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (n_in != 3 || n_out != 1 || !out0) return fail(c, "expected 3 operands and one result");
  for (size_t k = 0; k < 3; k++) {
    if (!in[k] || resolve(in[k])->is_vec) return fail(c, "operand %zu must be a tensor", k);
  }
  if (first) {
    for (size_t k = 0; k < 3; k++) mark_use(in[k]);
    return IC_OK;
  }
  static const char *const slots[3] = {"Start", "End", "Step"};
  pval *cv[3];
  for (size_t k = 0; k < 3; k++) {
    if (!(cv[k] = new_value(c, out0->id))) return oom(c);
    char tn[64];
    snprintf(tn, sizeof tn, "%s.%s", out0->name, slots[k]);
    if (!(cv[k]->name = ic_arena_strdup(c->arena, tn))) return oom(c);
    cv[k]->has_type = cv[k]->tensor = true;
    cv[k]->dtype = out0->dtype;
    cv[k]->dtype_name = out0->dtype_name;
    cv[k]->ndim = 1;
    cv[k]->dims[0] = 1;
    ic_builder_op *cast = ic_builder_add_op(c->b, c->block, "cast");
    ic_builder_attr_int(cast, "in_dtype", resolve(in[k])->dtype);
    ic_builder_attr_int(cast, "out_dtype", out0->dtype);
    if ((st = emit_values(c, cast, true, "X", 1, &in[k])) ||
        (st = emit_values(c, cast, false, "Out", 1, &cv[k]))) {
      return st;
    }
  }
  ic_builder_op *range = ic_builder_add_op(c->b, c->block, "range");
  for (size_t k = 0; k < 3; k++) {
    if ((st = emit_values(c, range, true, slots[k], 1, &cv[k]))) return st;
  }
  return emit_values(c, range, false, "Out", 1, &out0);
}

/* The int64 shape (Paddle 3's paddle.shape): the ProgramDesc shape op writes int32, so
 * shape into "%ID.i32", then cast to the int64 value. */
static ic_status tr_shape64(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  size_t n_out = oa->n_out;
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (n_in != 1 || !in[0] || resolve(in[0])->is_vec || n_out != 1 || !out0) {
    return fail(c, "expected one tensor operand and one result");
  }
  if (first) {
    mark_use(in[0]);
    return IC_OK;
  }
  pval *tmp = new_value(c, out0->id);
  if (!tmp) return oom(c);
  char tn[48];
  snprintf(tn, sizeof tn, "%s.i32", out0->name);
  if (!(tmp->name = ic_arena_strdup(c->arena, tn))) return oom(c);
  tmp->has_type = tmp->tensor = true;
  tmp->dtype = IC_INT32;
  tmp->ndim = 1;
  tmp->dims[0] = out0->ndim == 1 ? out0->dims[0] : -1;
  ic_builder_op *sh = ic_builder_add_op(c->b, c->block, "shape");
  if ((st = emit_values(c, sh, true, "Input", 1, &in[0])) ||
      (st = emit_values(c, sh, false, "Out", 1, &tmp))) {
    return st;
  }
  ic_builder_op *cast = ic_builder_add_op(c->b, c->block, "cast");
  ic_builder_attr_int(cast, "in_dtype", IC_INT32);
  ic_builder_attr_int(cast, "out_dtype", IC_INT64);
  if ((st = emit_values(c, cast, true, "X", 1, &tmp))) return st;
  return emit_values(c, cast, false, "Out", 1, &out0);
}

/* A constant tensor: values as doubles whatever the dtype. The inplace variant's operand
 * is only the buffer it overwrites. The ProgramDesc op keeps one list per dtype. */
static ic_status tr_assign_value(ctx *c, const json_t *op, const pir_opargs *oa) {
  size_t n_out = oa->n_out;
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (n_out != 1 || !out0) return fail(c, "expected one result");
  if (first) return IC_OK;
  json_t *vals = op_attr(op, "values"), *vd = vals ? json_object_get(vals, "D") : NULL;
  json_t *dt = op_attr(op, "dtype"), *dd = dt ? json_object_get(dt, "D") : NULL;
  int dtype;
  if (!json_is_array(vd)) return fail(c, "attribute 'values' is missing or not an array");
  if (!json_is_string(dd) || !dtype_from_name(json_string_value(dd), &dtype)) {
    return fail(c, "attribute 'dtype' is missing or not a known data type");
  }
  size_t n = json_array_size(vd);
  double *v = ic_arena_calloc(c->arena, n ? n : 1, sizeof *v);
  if (!v) return oom(c);
  for (size_t i = 0; i < n; i++) {
    json_t *e = adata(json_array_get(vd, i));
    if (json_is_object(e)) e = adata(e); /* a_scalar */
    if (json_is_boolean(e)) v[i] = json_is_true(e);
    else if (!num_of(e, &v[i])) return fail(c, "attribute 'values': element %zu is not a number", i);
  }
  ic_builder_op *bop = ic_builder_add_op(c->b, c->block, "assign_value");
  if ((st = emit_attr(c, bop, "shape", op_attr(op, "shape")))) return st;
  ic_builder_attr_int(bop, "dtype", dtype);
  switch (dtype) {
    case IC_FP32: case IC_FP64: {
      if (dtype == IC_FP64) {
        ic_builder_attr_doubles(bop, "fp64_values", n, v);
        break;
      }
      float *f = ic_arena_calloc(c->arena, n ? n : 1, sizeof *f);
      if (!f) return oom(c);
      for (size_t i = 0; i < n; i++) f[i] = to_f32(v[i]);
      ic_builder_attr_floats(bop, "fp32_values", n, f);
      break;
    }
    case IC_INT32: case IC_INT64: case IC_BOOL: {
      int64_t *l = ic_arena_calloc(c->arena, n ? n : 1, sizeof *l);
      int32_t *w = ic_arena_calloc(c->arena, n ? n : 1, sizeof *w);
      bool *b = ic_arena_calloc(c->arena, n ? n : 1, sizeof *b);
      if (!l || !w || !b) return oom(c);
      for (size_t i = 0; i < n; i++) {
        if (v[i] != floor(v[i]) || fabs(v[i]) > 9007199254740992.0 ||
            (dtype == IC_INT32 && fabs(v[i]) > 2147483647.0)) {
          return fail(c, "attribute 'values': element %zu (%g) is not a %s", i, v[i],
                      json_string_value(dd));
        }
        l[i] = (int64_t)v[i];
        w[i] = (int32_t)(dtype == IC_INT32 ? v[i] : 0);
        b[i] = v[i] != 0;
      }
      if (dtype == IC_INT32) ic_builder_attr_ints(bop, "int32_values", n, w);
      else if (dtype == IC_INT64) ic_builder_attr_longs(bop, "int64_values", n, l);
      else ic_builder_attr_bools(bop, "bool_values", n, b);
      break;
    }
    default:
      return fail(c, "dtype %s is not supported", json_string_value(dd));
  }
  return emit_values(c, bop, false, "Out", 1, &out0);
}

/* Control flow: regions become blocks. pd_op.if and pd_op.while become the ops of
 * Paddle's legacy cond and while (translate_if, translate_while); others keep their
 * PIR name (no kernel). */
static ic_status tr_regions(ctx *c, const json_t *op, const json_t *regions, bool pd,
                             const pir_opargs *oa) {
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  pval **out = oa->out;
  size_t n_out = oa->n_out;
  bool first = oa->first;
  const char *name = oa->name;
  ic_status st = IC_OK;
  if (!json_is_array(regions)) return fail(c, "\"regions\" is %s, expected an array", jtype(regions));
  if (!first && pd && strcmp(name, "if") == 0) return translate_if(c, regions, in, n_in, out, n_out);
  if (!first && pd && strcmp(name, "while") == 0) {
    return translate_while(c, regions, in, n_in, out, n_out);
  }
  ic_builder_op *bop = first ? NULL : ic_builder_add_op(c->b, c->block, c->opname);
  const char *opname = c->opname;
  long opindex = c->op;
  int block = c->block;
  size_t i;
  json_t *r;
  const cfframe *saved = c->cf;
  c->cf = NULL; /* a yield in these regions is not an enclosing if's or while's */
  json_array_foreach(regions, i, r) {
    int fb = -1, nb = 0;
    if ((st = walk_region(c, r, block, &fb, &nb))) return st;
    c->block = block;
    c->op = opindex;
    c->opname = opname;
    if (bop) {
      for (int k = 0; k < nb; k++) {
        char an[48];
        snprintf(an, sizeof an, "sub_block_%zu_%d", i, k);
        ic_builder_attr_block(bop, an, fb + k);
      }
    }
  }
  c->cf = saved;
  if (!first) {
    size_t nv = 0;
    pval **vs = ic_arena_calloc(c->arena, n_in ? n_in : 1, sizeof *vs);
    if (!vs) return oom(c);
    for (size_t k = 0; k < n_in; k++) if (in[k] && !resolve(in[k])->is_vec) vs[nv++] = in[k];
    if ((st = emit_values(c, bop, true, "Input", nv, vs))) return st;
    nv = 0;
    pval **os = ic_arena_calloc(c->arena, n_out ? n_out : 1, sizeof *os);
    if (!os) return oom(c);
    for (size_t k = 0; k < n_out; k++) if (out[k] && !out[k]->is_vec) os[nv++] = out[k];
    return emit_values(c, bop, false, "Out", nv, os);
  }
  for (size_t k = 0; k < n_in; k++) if (in[k]) mark_use(in[k]);
  return IC_OK;
}

/* cf.yield and friends, inside control-flow blocks: kept under their PIR names, but for
 * the yield that ends an if branch or a while body. */
static ic_status tr_cf(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  pval **out = oa->out;
  size_t n_out = oa->n_out;
  bool first = oa->first;
  const char *name = oa->name;
  ic_status st = IC_OK;
  if (first) {
    for (size_t k = 0; k < n_in; k++) if (in[k]) mark_use(in[k]);
    return IC_OK;
  }
  if (c->cf && strcmp(name, "yield") == 0) return translate_yield(c, in, n_in);
  ic_builder_op *bop = ic_builder_add_op(c->b, c->block, c->opname);
  size_t nv = 0;
  for (size_t k = 0; k < n_in; k++) if (in[k] && !resolve(in[k])->is_vec) in[nv++] = in[k];
  if ((st = emit_values(c, bop, true, "X", nv, in))) return st;
  nv = 0;
  for (size_t k = 0; k < n_out; k++) if (out[k] && !out[k]->is_vec) out[nv++] = out[k];
  return emit_values(c, bop, false, "Out", nv, out);
}

/* A table op; inplace variants (relu_, batch_norm_) read as the plain op. */
/* The values of vs[0..n) (vector ones by their elements) into *all, skipping null
 * values and, with typed_only, results without a type (an optional result not produced). */
static ic_status flatten_values(ctx *c, pval **vs, size_t n, bool typed_only, pval ***all,
                                size_t *n_all) {
  size_t cap = 0;
  for (size_t k = 0; k < n; k++) {
    if (vs[k]) cap += resolve(vs[k])->is_vec ? resolve(vs[k])->n_elems : 1;
  }
  pval **a = ic_arena_calloc(c->arena, cap ? cap : 1, sizeof *a);
  if (!a) return oom(c);
  size_t m = 0;
  for (size_t k = 0; k < n; k++) {
    if (!vs[k]) continue;
    pval *v = resolve(vs[k]);
    size_t ne = v->is_vec ? v->n_elems : 1;
    for (size_t e = 0; e < ne; e++) {
      pval *x = v->is_vec ? resolve(v->elems[e]) : v;
      if (!typed_only || x->has_type) a[m++] = x;
    }
  }
  *all = a;
  *n_all = m;
  return IC_OK;
}

/* A pd_op icore has no translation for: kept as an op of its own PIR name ("pd_op.foo"),
 * its operands in slot X and its results in slot Out, so that the program loads and
 * analysis refuses it as an op without a kernel, as it refuses a ProgramDesc op it does not
 * know: `icore info` lists every such op type, and `--prune` runs what comes before them. */
static ic_status tr_unknown(ctx *c, const pir_opargs *oa) {
  if (oa->first) {
    for (size_t k = 0; k < oa->n_in; k++) {
      if (oa->in[k]) mark_use(oa->in[k]);
    }
    return IC_OK;
  }
  ic_builder_op *bop = ic_builder_add_op(c->b, c->block, c->opname);
  pval **vals;
  size_t n;
  ic_status st = flatten_values(c, oa->in, oa->n_in, false, &vals, &n);
  if (!st && n) st = emit_values(c, bop, true, "X", n, vals);
  if (!st) st = flatten_values(c, oa->out, oa->n_out, true, &vals, &n);
  if (!st && n) st = emit_values(c, bop, false, "Out", n, vals);
  return st;
}

static ic_status tr_table_op(ctx *c, const json_t *op, const pir_opargs *oa) {
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  pval **out = oa->out;
  size_t n_out = oa->n_out;
  bool first = oa->first;
  const char *name = oa->name;
  ic_status st = IC_OK;
  char base[96];
  snprintf(base, sizeof base, "%s", name);
  size_t bl = strlen(base);
  if (bl > 1 && base[bl - 1] == '_') base[bl - 1] = '\0';
  const ic_pir_opmap *m = ic_pir_find_op(base);
  if (!m) return tr_unknown(c, oa);
  size_t n_specs = n_fields(m->ins), n_slots = n_fields(m->outs);
  if (n_in > n_specs) return fail(c, "has %zu operands, icore reads at most %zu", n_in, n_specs);
  if (n_out > n_slots) return fail(c, "has %zu results, icore reads at most %zu", n_out, n_slots);
  const char *type = m->type;
  ic_builder_op *bop = first ? NULL : ic_builder_add_op(c->b, c->block, type);
  if (first && strcmp(base, "stack") == 0 && n_in == 1 && in[0] && n_out == 1 && out[0]) {
    pval *vec = resolve(in[0]);
    int64_t axis = -1;
    bool scalars = vec->is_vec && vec->n_elems > 0 && int_attr(c, op, "axis", &axis) == IC_OK &&
                   axis == 0;
    for (size_t e = 0; scalars && e < vec->n_elems; e++) {
      const pval *el = resolve(vec->elems[e]);
      scalars = el->has_type && el->tensor && (el->dtype == IC_INT32 || el->dtype == IC_INT64);
      for (int d = 0; scalars && d < el->ndim; d++) scalars = el->dims[d] == 1;
    }
    if (scalars) out[0]->stacked = vec;
  }
  bool reduce_all = false;
  for (size_t k = 0; k < n_in; k++) {
    const char *p;
    size_t len;
    field(m->ins, k, &p, &len);
    spec sp;
    parse_spec(p, len, &sp);
    if ((st = do_operand(c, m, bop, k, in[k], &sp, is_reduce(m->type) ? &reduce_all : NULL))) {
      return st;
    }
  }
  for (size_t k = 0; k < n_out; k++) {
    if (!out[k]) continue;
    const char *p;
    size_t len;
    field(m->outs, k, &p, &len);
    spec sp;
    parse_spec(p, len, &sp);
    if (out[k]->is_vec != sp.multi) {
      return fail(c, "result %zu is %s, expected %s", k, out[k]->is_vec ? "a vector" : "a tensor",
                  sp.multi ? "a vector" : "a tensor");
    }
    if (bop) {
      if ((st = out[k]->is_vec ? emit_values(c, bop, false, sp.slot, out[k]->n_elems, out[k]->elems)
                               : emit_values(c, bop, false, sp.slot, 1, &out[k]))) {
        return st;
      }
    }
  }
  json_t *attrs = json_object_get(op, "A");
  if (attrs && !json_is_array(attrs)) return fail(c, "\"A\" is %s, expected an array", jtype(attrs));
  size_t i;
  json_t *a;
  json_array_foreach(attrs, i, a) {
    json_t *nj = get(c, a, "N", JSON_STRING, true, "attribute", &st);
    if (!nj) return st;
    json_t *at = get(c, a, "AT", JSON_OBJECT, true, "attribute", &st);
    if (!at) return st;
    char buf[64];
    const char *an = rename_attr(m, json_string_value(nj), buf, sizeof buf);
    if (!an) continue;
    if (!bop) continue;
    /* A reduction's axes as an attribute (older Paddle: mean's "axis"): empty means all,
     * as when they come from a constant operand (do_operand). */
    if (is_reduce(m->type) && strcmp(an, "dim") == 0) {
      json_t *d = json_object_get(at, "D");
      if (json_is_array(d) && json_array_size(d) == 0) reduce_all = true;
    }
    if ((st = emit_attr(c, bop, an, at))) return st;
  }
  if (!bop) return IC_OK;
  /* Extras: "+name=int". */
  for (const char *p = m->attrs; (p = strchr(p, '+'));) {
    p++;
    const char *eq = strchr(p, '=');
    if (!eq) break;
    char an[40];
    snprintf(an, sizeof an, "%.*s", (int)(eq - p), p);
    ic_builder_attr_int(bop, an, atoi(eq + 1));
  }
  if (strcmp(m->type, "cast") == 0 && in[0]) {
    ic_builder_attr_int(bop, "in_dtype", resolve(in[0])->dtype);
  }
  if (is_reduce(m->type)) ic_builder_attr_bool(bop, "reduce_all", reduce_all);
  return IC_OK;
}

/* pd_op.full and full_int_array: constants (do_constant). */
static ic_status tr_full(ctx *c, const json_t *op, const pir_opargs *oa) {
  return do_constant(c, op, strcmp(oa->name, "full_int_array") == 0, oa->out0);
}

/* The slice_array_dense that tr_array_read_back takes: a constant negative index. */
static bool negative_array_index(const pir_opargs *oa) {
  const pval *i = oa->n_in == 2 && oa->in[0] && oa->in[1] && oa->out0 ? resolve(oa->in[1]) : NULL;
  return i && i->konst == 2 && i->kn == 1 && i->kints[0] < 0;
}

/* The ops translated by a function of their own rather than by a k_ops row (pir_ops.c), by
 * dialect; `when`, if set, narrows an entry to the operands it handles (the others go on to
 * the table). */
typedef struct pir_special {
  const char *name;
  ic_status (*fn)(ctx *c, const json_t *op, const pir_opargs *oa);
  bool (*when)(const pir_opargs *oa);
} pir_special;

static const pir_special k_builtin_ops[] = {
    {"combine", tr_combine, NULL},
    {"parameter", tr_parameter, NULL},
    {"split", tr_split, NULL},
};

static const pir_special k_pd_special_ops[] = {
    {"arange", tr_arange, NULL},
    {"array_write_", tr_array_write, NULL},
    {"assign_value", tr_assign_value, NULL},
    {"assign_value_", tr_assign_value, NULL},
    {"create_array", tr_create_array, NULL},
    {"data", tr_data, NULL},
    {"feed", tr_data, NULL},
    {"fetch", tr_fetch, NULL},
    {"full", tr_full, NULL},
    {"full_int_array", tr_full, NULL},
    {"shape64", tr_shape64, NULL},
    {"slice_array_dense", tr_array_read_back, negative_array_index},
};

static const pir_special *find_special(const pir_special *t, size_t n, const pir_opargs *oa) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(t[i].name, oa->name) == 0 && (!t[i].when || t[i].when(oa))) return &t[i];
  }
  return NULL;
}

/* One op: its name decompressed, its operands checked (defined before, visible) and its
 * results defined (first walk) or found (second), then handed to its translation: a
 * builtin op's or a special pd_op's function, the control-flow ones, or a k_ops row. */
static ic_status walk_op(ctx *c, const json_t *op, long index) {
  ic_status st = IC_OK;
  c->op = index;
  c->opname = NULL;
  if (!json_is_object(op)) return fail(c, "op #%ld in block %d is %s, expected an object", index, c->block, jtype(op));
  json_t *idj = get(c, op, "#", JSON_STRING, true, "op", &st);
  if (!idj) {
    return fail(c, "op #%ld in block %d has no \"#\" naming it", index, c->block);
  }
  const char *cname = json_string_value(idj);
  /* Decompressed name for messages: "1.conv2d" -> "pd_op.conv2d". */
  static const char *const dialects[] = {"builtin", "pd_op", "cf", "custom_op", "dist"};
  char full[128];
  const char *dot = strchr(cname, '.');
  if (strcmp(cname, "p") == 0) {
    snprintf(full, sizeof full, "builtin.parameter");
  } else if (dot && dot - cname == 1 && cname[0] >= '0' && cname[0] <= '4') {
    snprintf(full, sizeof full, "%s.%s", dialects[cname[0] - '0'], dot + 1);
  } else {
    snprintf(full, sizeof full, "%s", cname);
  }
  c->opname = ic_arena_strdup(c->arena, full);
  if (!c->opname) return oom(c);
  const char *dialect_end = strchr(c->opname, '.');
  if (!dialect_end) return fail(c, "op name \"%s\" has no dialect", cname);
  size_t dl = (size_t)(dialect_end - c->opname);
  const char *name = dialect_end + 1;
  bool first = c->b == NULL;
  json_t *ins = json_object_get(op, "I");
  if (ins && !json_is_array(ins)) return fail(c, "\"I\" is %s, expected an array", jtype(ins));
  size_t n_in = json_array_size(ins);

  /* Check every operand first: defined before, visible. */
  pval **in = ic_arena_calloc(c->arena, n_in ? n_in : 1, sizeof *in);
  if (!in) return oom(c);
  for (size_t k = 0; k < n_in; k++) {
    if ((st = operand(c, op, k, &in[k]))) return st;
  }
  pval **out = NULL;
  size_t n_out = 0;
  if (first) st = define_results(c, op, &out, &n_out);
  else st = results(c, op, &out, &n_out);
  if (st) return st;
  pir_opargs oa = {.name = name, .cname = cname, .in = in, .out = out, .out0 = n_out ? out[0] : NULL,
                   .n_in = n_in, .n_out = n_out, .first = first};
  const pir_special *sp = NULL;
  if (dl == 7 && strncmp(c->opname, "builtin", 7) == 0) {
    sp = find_special(k_builtin_ops, sizeof k_builtin_ops / sizeof k_builtin_ops[0], &oa);
    return sp ? sp->fn(c, op, &oa) : fail(c, "icore does not translate %s", c->opname);
  }
  bool pd = dl == 5 && strncmp(c->opname, "pd_op", 5) == 0;
  if (pd) sp = find_special(k_pd_special_ops, sizeof k_pd_special_ops / sizeof k_pd_special_ops[0], &oa);
  if (sp) return sp->fn(c, op, &oa);
  json_t *regions = json_object_get(op, "regions");
  if (regions) return tr_regions(c, op, regions, pd, &oa);
  if (dl == 2 && strncmp(c->opname, "cf", 2) == 0) return tr_cf(c, op, &oa);
  /* a user's custom op: like an unknown pd_op, an op without a kernel */
  if (dl == 9 && strncmp(c->opname, "custom_op", 9) == 0) return tr_unknown(c, &oa);
  if (!pd) return fail(c, "icore does not translate ops of this dialect");
  return tr_table_op(c, op, &oa);
}

static ic_status walk_block(ctx *c, const json_t *block, int idx) {
  ic_status st = IC_OK;
  c->block = idx;
  c->opname = NULL;
  char what[48];
  snprintf(what, sizeof what, "block %d", idx);
  json_t *args = get(c, block, "args", JSON_ARRAY, false, what, &st);
  if (st) return st;
  size_t i;
  json_t *e;
  json_array_foreach(args, i, e) {
    char aw[64];
    snprintf(aw, sizeof aw, "block %d, argument %zu", idx, i);
    json_t *id = get(c, e, "#", JSON_INTEGER, true, aw, &st);
    if (!id) return st;
    int64_t vid = json_integer_value(id);
    if (c->b) {
      pval *v = find_value(c, vid);
      /* a while body's arguments are its loop variables (alias): nothing to declare */
      if (v && !v->alias && !v->is_vec && v->has_type && (st = declare(c, v))) return st;
      continue;
    }
    if (vid >= 0) return fail(c, "%s has id %" PRId64 ", expected a negative id", aw, vid);
    if (find_value(c, vid)) return fail(c, "%s: value %%arg%" PRId64 " is defined twice", aw, -vid);
    pval *v = new_value(c, vid);
    if (!v) return oom(c);
    json_t *tt = json_object_get(e, "TT");
    if (tt && (st = read_type(c, tt, v, aw))) return st;
    const char *key = id_key(c, vid);
    if (!key || !ic_strmap_put(&c->values, key, v)) return oom(c);
  }
  json_t *ops = get(c, block, "ops", JSON_ARRAY, true, what, &st);
  if (!ops) return st;
  json_array_foreach(ops, i, e) {
    c->block = idx;
    if ((st = walk_op(c, e, (long)i))) return st;
  }
  return IC_OK;
}

/* A region's blocks become consecutive blocks with parent `parent` (-1: the program). */
static ic_status walk_region(ctx *c, const json_t *region, int parent, int *first_block,
                             int *n_blocks) {
  ic_status st = IC_OK;
  c->opname = NULL;
  json_t *blocks = get(c, region, "blocks", JSON_ARRAY, true, "region", &st);
  if (!blocks) return st;
  *n_blocks = (int)json_array_size(blocks);
  *first_block = c->n_blocks;
  size_t i;
  json_t *b;
  json_array_foreach(blocks, i, b) {
    int idx = c->n_blocks++;
    if ((size_t)c->n_blocks > c->cap_parents) {
      size_t nc = c->cap_parents ? c->cap_parents * 2 : 8;
      int *np = realloc(c->parents, nc * sizeof *np);
      if (!np) return oom(c);
      c->parents = np;
      c->cap_parents = nc;
    }
    c->parents[idx] = parent;
    if (c->b && idx > 0 && ic_builder_add_block(c->b, parent) != idx) return oom(c);
    if ((st = walk_block(c, b, idx))) return st;
  }
  return IC_OK;
}

static int fetch_cmp(const void *a, const void *b) {
  int64_t x = ((const fetchref *)a)->col, y = ((const fetchref *)b)->col;
  return (x > y) - (x < y);
}

static ic_status walk_program(ctx *c, const json_t *program) {
  ic_status st = IC_OK;
  c->n_blocks = 0;
  json_t *regions = get(c, program, "regions", JSON_ARRAY, true, "\"program\"", &st);
  if (!regions) return st;
  if (json_array_size(regions) != 1) {
    return fail(c, "\"program\" has %zu regions, expected 1", json_array_size(regions));
  }
  int fb, nb;
  if ((st = walk_region(c, json_array_get(regions, 0), -1, &fb, &nb))) return st;
  if (nb != 1) return fail(c, "the program's region has %d blocks, expected 1", nb);
  return IC_OK;
}

bool ic_pir_json_sniff(const void *data, size_t size) {
  /* Leading spaces, tabs and carriage returns are skipped, but not a newline: 0x0A is the
   * first byte of nearly every ProgramDesc (field 1, blocks), and 0x0A 0x7B one whose
   * first block is 123 bytes long. */
  const unsigned char *p = data;
  for (size_t i = 0; i < size; i++) {
    if (p[i] == ' ' || p[i] == '\t' || p[i] == '\r') continue;
    return p[i] == '{';
  }
  return false;
}

ic_status ic_pir_json_to_programdesc(const void *data, size_t size, const char *origin,
                                     void **pb, size_t *pb_size, ic_err *err) {
  *pb = NULL;
  *pb_size = 0;
  ctx c = {.origin = origin ? origin : "<memory>", .err = err};
  ic_strmap_init(&c.values);
  ic_strmap_init(&c.params);
  json_error_t je;
  ic_status st = IC_OK;
  json_t *root = json_loadb(data, size, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
  if (!root) {
    st = ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                    "%s: not valid JSON at line %d, column %d (byte %d): %s", c.origin, je.line,
                    je.column, je.position, je.text);
    goto done;
  }
  if (!(c.arena = ic_arena_create())) {
    st = oom(&c);
    goto done;
  }
  json_t *base = get(&c, root, "base_code", JSON_OBJECT, true, "the document", &st);
  if (!base) {
    if (!json_is_object(root)) st = fail(&c, "the document is %s, expected an object", jtype(root));
    else st = fail(&c, "no \"base_code\": not a PIR program (Paddle 3 writes {\"base_code\": "
                       "{\"magic\": \"pir\", ...}, \"program\": ...})");
    goto done;
  }
  json_t *magic = get(&c, base, "magic", JSON_STRING, true, "\"base_code\"", &st);
  if (!magic) goto done;
  if (strcmp(json_string_value(magic), "pir") != 0) {
    st = fail(&c, "\"base_code\".\"magic\" is \"%s\", expected \"pir\"", json_string_value(magic));
    goto done;
  }
  json_t *ver = get(&c, base, "version", JSON_INTEGER, true, "\"base_code\"", &st);
  if (!ver) goto done;
  json_int_t v = json_integer_value(ver);
  if (v < 0 || v > IC_PIR_VERSION_MAX) {
    st = ic_err_set(err, IC_ERR_UNSUPPORTED,
                    "%s: PIR program version %lld is not supported: icore reads versions 0 to %d "
                    "(what Paddle 3.0 to 3.3 write); a newer Paddle may have changed the ops",
                    c.origin, (long long)v, IC_PIR_VERSION_MAX);
    goto done;
  }
  json_t *program = get(&c, root, "program", JSON_OBJECT, true, "the document", &st);
  if (!program) goto done;
  /* First walk: define, check, find constants and uses. */
  if ((st = walk_program(&c, program))) goto done;
  if (c.n_fetch) qsort(c.fetch, c.n_fetch, sizeof *c.fetch, fetch_cmp);
  for (size_t i = 0; i < c.n_fetch; i++) {
    if (c.fetch[i].col != (int64_t)i) {
      c.opname = NULL;
      st = fail(&c, "fetch columns are not 0..%zu (column %lld %s)", c.n_fetch - 1,
                (long long)c.fetch[i].col, i && c.fetch[i].col == c.fetch[i - 1].col ? "appears twice" : "is missing before it");
      goto done;
    }
  }
  /* Second walk: emit. */
  if (!(c.b = ic_builder_create())) {
    st = oom(&c);
    goto done;
  }
  if ((st = walk_program(&c, program))) goto done;
  for (size_t i = 0; i < c.n_fetch; i++) ic_builder_fetch(c.b, c.fetch[i].v->name);
  st = ic_builder_serialize(c.b, pb, pb_size);
  if (st) st = ic_err_set(err, st, "%s: out of memory building the program", c.origin);
done:
  ic_builder_destroy(c.b);
  json_decref(root);
  ic_strmap_free(&c.values);
  ic_strmap_free(&c.params);
  ic_arena_destroy(c.arena);
  free(c.parents);
  free(c.fetch);
  return st;
}
