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
 * Shape / ShapeTensor). This file reads the format and walks it, and translates the ops of
 * that table; regions of control-flow ops become sub-blocks in pir_cf.c (pd_op.if as
 * Paddle's legacy cond, pd_op.while as its legacy while; tensor arrays there too), and the
 * ops with a translation of their own (parameters, combine / split, data, fetch, constants)
 * are in pir_special.c. pir_json_impl.h is what the three share. */
#include "program/pir_json.h"

#include <float.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/pir_json_impl.h"

/* The reductions: an empty axis list means all axes. */
static bool is_reduce(const char *type) { return strncmp(type, "reduce_", 7) == 0; }

/* ---------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------- */

ic_status ic_pj_oom(ctx *c) { return ic_err_set(c->err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

/* "FILE: op #3 (pd_op.conv2d) in block 0: " + message */
ic_status ic_pj_fail(ctx *c, const char *fmt, ...) {
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

pval *ic_pj_find_value(ctx *c, int64_t id) {
  char k[32];
  snprintf(k, sizeof k, "%" PRId64, id);
  return ic_strmap_get(&c->values, k);
}

pval *ic_pj_resolve(pval *v) {
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

const char *ic_pj_jtype(const json_t *j) {
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
    if (required) *st = ic_pj_fail(c, "%s has no \"%s\"", what, key);
    return NULL;
  }
  bool ok = json_typeof(v) == want || (want == JSON_INTEGER && json_is_integer(v)) ||
            (want == JSON_TRUE && json_is_boolean(v));
  if (!ok) {
    *st = ic_pj_fail(c, "%s: \"%s\" is %s, expected %s", what, key, ic_pj_jtype(v),
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
bool ic_pj_dtype_from_name(const char *s, int *out) {
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
  if (json_array_size(d) < 2) return ic_pj_fail(c, "%s: a dense tensor type needs [dtype, dims, ...]", what);
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
  if (v->dtype == -2) return ic_pj_fail(c, "%s: unknown element type \"%s\"", what, json_string_value(dtid));
  if (!json_is_array(dims)) return ic_pj_fail(c, "%s: dims are %s, expected an array", what, ic_pj_jtype(dims));
  if (json_array_size(dims) > IC_MAX_RANK) {
    return ic_pj_fail(c, "%s: %zu dims, at most %d supported", what, json_array_size(dims), IC_MAX_RANK);
  }
  v->ndim = (int)json_array_size(dims);
  for (int k = 0; k < v->ndim; k++) {
    json_t *e = json_array_get(dims, (size_t)k);
    if (!json_is_integer(e) || json_integer_value(e) < -1) {
      return ic_pj_fail(c, "%s: dim %d is %s, expected an integer >= -1", what, k,
                        json_is_integer(e) ? "negative" : ic_pj_jtype(e));
    }
    v->dims[k] = json_integer_value(e);
  }
  v->has_type = true;
  v->tensor = true;
  return IC_OK;
}

pval *ic_pj_new_value(ctx *c, int64_t id) {
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
    if (!v->elems) return ic_pj_oom(c);
    for (size_t k = 0; k < v->n_elems; k++) {
      pval *e = ic_pj_new_value(c, v->id);
      if (!e) return ic_pj_oom(c);
      char name[48];
      snprintf(name, sizeof name, "%s.%zu", v->name, k);
      if (!(e->name = ic_arena_strdup(c->arena, name))) return ic_pj_oom(c);
      char ew[160];
      snprintf(ew, sizeof ew, "%s, element %zu", what, k);
      if ((st = read_type(c, json_array_get(d, k), e, ew))) return st;
      if (e->is_vec) return ic_pj_fail(c, "%s: a vector of vectors is not supported", ew);
      v->elems[k] = e;
    }
    return IC_OK;
  }
  return ic_pj_fail(c, "%s: type \"%s\" is not supported (dense tensors and vectors of them are)", what,
                    json_string_value(id));
}

/* ---------------------------------------------------------------------------------------
 * Attributes
 * ------------------------------------------------------------------------------------- */

/* The attribute named `name` of op JSON `op` (its "A" list), or NULL. */
json_t *ic_pj_op_attr(const json_t *op, const char *name) {
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
float ic_pj_to_f32(double v) {
  if (v > FLT_MAX) return INFINITY;
  if (v < -FLT_MAX) return -INFINITY;
  return (float)v;
}

/* A float attribute's number. The writer cannot put a non-finite value in JSON: it writes
 * {"#": "0.a_f64", "VD": "INF"} ("-INF", "NaN") instead of "D", and adata hands that string
 * here. */
bool ic_pj_num_of(const json_t *d, double *out) {
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

/* An attribute's data: "D", or "VD" where a non-finite float stands (see ic_pj_num_of). */
json_t *ic_pj_adata(const json_t *at) {
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
ic_status ic_pj_emit_attr(ctx *c, ic_builder_op *op, const char *name, const json_t *at) {
  const char *k = attr_kind(at);
  json_t *d = ic_pj_adata(at);
  if (!k || !d) return ic_pj_fail(c, "attribute '%s' is not an {\"#\": type, \"D\": data} object", name);
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
    if (!ic_pj_num_of(d, &f)) goto bad;
    ic_builder_attr_float(op, name, ic_pj_to_f32(f));
  } else if (strcmp(k, "a_f64") == 0) {
    if (!ic_pj_num_of(d, &f)) goto bad;
    ic_builder_attr_double(op, name, f);
  } else if (strcmp(k, "a_str") == 0 || strcmp(k, "a_datalayout") == 0) {
    if (!json_is_string(d)) goto bad;
    ic_builder_attr_string(op, name, json_string_value(d));
  } else if (strcmp(k, "a_dtype") == 0) {
    int dt;
    if (!json_is_string(d)) goto bad;
    if (!ic_pj_dtype_from_name(json_string_value(d), &dt)) {
      return ic_pj_fail(c, "attribute '%s': unknown data type \"%s\"", name, json_string_value(d));
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
    if (!iv || !fv || !bv || !sv) return ic_pj_oom(c);
    for (size_t i = 0; i < n; i++) {
      json_t *e = json_array_get(d, i), *ed = intarray ? e : ic_pj_adata(e);
      const char *k2 = intarray ? "a_i64" : attr_kind(e);
      if (!k2 || strcmp(k2, ek) != 0 || !ed) {
        return ic_pj_fail(c, "attribute '%s': element %zu is not a %s like element 0", name, i, ek);
      }
      bool ok = strcmp(ek, "a_bool") == 0   ? json_is_boolean(ed)
                : strcmp(ek, "a_str") == 0  ? json_is_string(ed)
                : strncmp(ek, "a_f", 3) == 0 ? ic_pj_num_of(ed, &fv[i])
                                             : json_is_integer(ed);
      if (!ok) return ic_pj_fail(c, "attribute '%s': element %zu is %s, expected a %s", name, i, ic_pj_jtype(ed), ek);
      if (json_is_integer(ed)) iv[i] = json_integer_value(ed);
      if (json_is_number(ed)) fv[i] = json_number_value(ed);
      bv[i] = json_is_true(ed);
      sv[i] = json_is_string(ed) ? json_string_value(ed) : NULL;
    }
    if (strcmp(ek, "a_i32") == 0) {
      int32_t *v32 = ic_arena_calloc(c->arena, n ? n : 1, sizeof *v32);
      if (!v32) return ic_pj_oom(c);
      for (size_t i = 0; i < n; i++) {
        if (iv[i] < INT32_MIN || iv[i] > INT32_MAX) {
          return ic_pj_fail(c, "attribute '%s': element %zu does not fit an int32", name, i);
        }
        v32[i] = (int32_t)iv[i];
      }
      ic_builder_attr_ints(op, name, n, v32);
    } else if (strcmp(ek, "a_i64") == 0) {
      ic_builder_attr_longs(op, name, n, iv);
    } else if (strcmp(ek, "a_f32") == 0) {
      float *v32 = ic_arena_calloc(c->arena, n ? n : 1, sizeof *v32);
      if (!v32) return ic_pj_oom(c);
      for (size_t i = 0; i < n; i++) v32[i] = ic_pj_to_f32(fv[i]);
      ic_builder_attr_floats(op, name, n, v32);
    } else if (strcmp(ek, "a_f64") == 0) {
      ic_builder_attr_doubles(op, name, n, fv);
    } else if (strcmp(ek, "a_bool") == 0) {
      ic_builder_attr_bools(op, name, n, bv);
    } else if (strcmp(ek, "a_str") == 0) {
      ic_builder_attr_strings(op, name, n, sv);
    } else {
      return ic_pj_fail(c, "attribute '%s': arrays of %s are not supported", name, ek);
    }
  } else if (strcmp(k, "a_scalar") == 0) {
    /* ScalarAttribute: its data is itself a typed attribute. */
    const char *k2 = attr_kind(d);
    json_t *dd = ic_pj_adata(d);
    if (!k2 || !dd) goto bad;
    if (json_is_integer(dd) && strncmp(k2, "a_f", 3) != 0) {
      ic_builder_attr_scalar_long(op, name, json_integer_value(dd));
    } else if (ic_pj_num_of(dd, &f)) {
      ic_builder_attr_scalar_double(op, name, f);
    } else if (json_is_boolean(dd)) {
      ic_builder_attr_scalar_long(op, name, json_is_true(dd));
    } else {
      goto bad;
    }
  } else {
    return ic_pj_fail(c, "attribute '%s' has type \"%s\", which icore does not read", name,
                      json_string_value(json_object_get(at, "#")));
  }
  return IC_OK;
bad:
  return ic_pj_fail(c, "attribute '%s' of type %s holds %s", name, k, ic_pj_jtype(d));
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
  pval *v = ic_pj_find_value(c, vid);
  if (!v || !block_visible(c, v->block, c->block)) {
    return ic_pj_fail(c, "operand %zu is value %%%" PRId64 ", which is not defined before this op in "
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

/* Slot args for a list of values. */
ic_status ic_pj_emit_values(ctx *c, ic_builder_op *bop, bool input, const char *slot, size_t n,
                            pval **vs) {
  const char **names = ic_arena_calloc(c->arena, n ? n : 1, sizeof *names);
  if (!names) return ic_pj_oom(c);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    pval *v = ic_pj_resolve(vs[i]);
    if (!input) {
      /* a result typed NULL is an optional output the op does not produce this time
       * (fused_rms_norm_quant's residual_out without a residual): left out */
      if (!v->is_vec && !v->has_type && n == 1) return IC_OK;
      ic_status st = ic_pj_declare(c, v);
      if (st) return st;
    }
    names[m++] = v->name;
  }
  if (input) ic_builder_input(bop, slot, m, names);
  else ic_builder_output(bop, slot, m, names);
  return IC_OK;
}

/* Mark v (or a vector's elements) as read as a tensor. */
void ic_pj_mark_use(pval *v) {
  v = ic_pj_resolve(v);
  if (v->is_vec) {
    for (size_t i = 0; i < v->n_elems; i++) ic_pj_resolve(v->elems[i])->tensor_use = true;
  } else {
    v->tensor_use = true;
  }
}

/* One operand by its spec: first walk marks uses, second walk emits (bop != NULL). */
static ic_status do_operand(ctx *c, const ic_pir_opmap *m, ic_builder_op *bop, size_t k, pval *v,
                            const spec *sp, bool *reduce_all) {
  if (!v) return IC_OK; /* the null value: an absent optional input */
  pval *r = ic_pj_resolve(v);
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
          return ic_pj_fail(c, "operand %zu: constant %g for '%s' is not an int32", k, r->kval, sp->attr);
        }
        ic_builder_attr_int(bop, sp->attr, (int32_t)r->kval);
      } else {
        ic_builder_attr_float(bop, sp->attr, ic_pj_to_f32(r->kval));
      }
      return IC_OK;
    }
    /* An IntArray built in the program as stack([s0, s1, ..]) of one-element tensors (a
     * loop index, a shape read at run time): its elements feed the list slot, as the
     * ProgramDesc op reads them. */
    pval *lst = r->is_vec ? r : (r->stacked && sp->list[0]) ? ic_pj_resolve(r->stacked) : NULL;
    /* Paddle's translator of a ProgramDesc puts a legacy op's whole-tensor input (reshape2's
     * Shape: one 1-D tensor of every dim) in a builtin.combine of that one tensor, and
     * Paddle reads all of its elements: it goes to the whole-tensor slot, where a tensor of
     * one element means what the list slot would. */
    if (r->is_vec && r->n_elems == 1 && sp->slot[0]) {
      const pval *e = ic_pj_resolve(r->elems[0]);
      if (e->has_type && !e->is_vec && e->ndim == 1 && e->dims[0] != 1) {
        r = ic_pj_resolve(r->elems[0]);
        lst = NULL;
      }
    }
    const char *slot = lst ? sp->list : sp->slot;
    if (!slot[0]) {
      return ic_pj_fail(c, "operand %zu ('%s') must be a constant (from pd_op.%s); it is value %s",
                        k, sp->attr, sp->kind == 'L' ? "full_int_array" : "full", r->name);
    }
    if (!bop) {
      if (lst) {
        for (size_t e = 0; e < lst->n_elems; e++) ic_pj_mark_use(lst->elems[e]);
      } else {
        ic_pj_mark_use(r);
      }
      return IC_OK;
    }
    if (lst && strcmp(m->type, "split") == 0) {
      /* split reads SectionsTensorList only when 'sections' is set: the -1 placeholders
       * Paddle's own static split writes for tensor sections. */
      int64_t *ph = ic_arena_calloc(c->arena, lst->n_elems ? lst->n_elems : 1, sizeof *ph);
      if (!ph) return ic_pj_oom(c);
      for (size_t e = 0; e < lst->n_elems; e++) ph[e] = -1;
      ic_builder_attr_longs(bop, sp->attr, lst->n_elems, ph);
    }
    return lst ? ic_pj_emit_values(c, bop, true, slot, lst->n_elems, lst->elems)
               : ic_pj_emit_values(c, bop, true, slot, 1, &r);
  }
  if (!sp->slot[0]) return IC_OK;
  if (r->is_vec && !sp->multi) {
    return ic_pj_fail(c, "operand %zu is a vector (%s), but %s reads one tensor in '%s'", k, r->name,
                      m->type, sp->slot);
  }
  if (!bop) {
    ic_pj_mark_use(r);
    return IC_OK;
  }
  return r->is_vec ? ic_pj_emit_values(c, bop, true, sp->slot, r->n_elems, r->elems)
                   : ic_pj_emit_values(c, bop, true, sp->slot, 1, &r);
}

/* ---------------------------------------------------------------------------------------
 * Walks
 * ------------------------------------------------------------------------------------- */

ic_status ic_pj_declare(ctx *c, pval *v) {
  if (v->declared || !c->b) return IC_OK;
  if (v->is_vec) {
    for (size_t i = 0; i < v->n_elems; i++) {
      ic_status st = ic_pj_declare(c, ic_pj_resolve(v->elems[i]));
      if (st) return st;
    }
    v->declared = true;
    return IC_OK;
  }
  if (!v->has_type) return ic_pj_fail(c, "value %s has no type, yet an op writes it", v->name);
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
bool ic_pj_param_persistable(const json_t *op) {
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
    return ic_pj_fail(c, "\"O\" is %s, expected an array of results", ic_pj_jtype(o));
  }
  pval **vs = ic_arena_calloc(c->arena, n ? n : 1, sizeof *vs);
  if (!vs) return ic_pj_oom(c);
  for (size_t k = 0; k < n; k++) {
    json_t *e = json_is_array(o) ? json_array_get(o, k) : o;
    char what[48];
    snprintf(what, sizeof what, "result %zu", k);
    ic_status st = IC_OK;
    json_t *id = get(c, e, "%", JSON_INTEGER, true, what, &st);
    if (!id) return st;
    int64_t vid = json_integer_value(id);
    if (vid == 0) continue; /* a null result */
    if (vid < 0) return ic_pj_fail(c, "%s has id %" PRId64 "; negative ids are block arguments", what, vid);
    if (ic_pj_find_value(c, vid)) return ic_pj_fail(c, "%s: value %%%" PRId64 " is defined twice", what, vid);
    pval *v = ic_pj_new_value(c, vid);
    if (!v) return ic_pj_oom(c);
    json_t *tt = json_object_get(e, "TT");
    if (tt && (st = read_type(c, tt, v, what))) return st;
    const char *key = id_key(c, vid);
    if (!key || !ic_strmap_put(&c->values, key, v)) return ic_pj_oom(c);
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
  if (!vs) return ic_pj_oom(c);
  for (size_t k = 0; k < n; k++) {
    json_t *e = json_is_array(o) ? json_array_get(o, k) : o;
    int64_t vid = json_integer_value(json_object_get(e, "%"));
    vs[k] = vid ? ic_pj_find_value(c, vid) : NULL;
  }
  *out = vs;
  *n_out = n;
  return IC_OK;
}

ic_status ic_pj_int_attr(ctx *c, const json_t *op, const char *name, int64_t *v) {
  json_t *at = ic_pj_op_attr(op, name);
  json_t *d = at ? json_object_get(at, "D") : NULL;
  if (!json_is_integer(d)) return ic_pj_fail(c, "attribute '%s' is missing or not an integer", name);
  *v = json_integer_value(d);
  return IC_OK;
}

ic_status ic_pj_str_attr(ctx *c, const json_t *op, const char *name, const char **v) {
  json_t *at = ic_pj_op_attr(op, name);
  json_t *d = at ? json_object_get(at, "D") : NULL;
  if (!json_is_string(d)) return ic_pj_fail(c, "attribute '%s' is missing or not a string", name);
  *v = json_string_value(d);
  return IC_OK;
}

/* full / full_int_array: record the constant (first walk); emit the op when some op reads
 * it as a tensor (second walk). */
ic_status ic_pj_do_constant(ctx *c, const json_t *op, bool int_array, pval *v) {
  ic_status st;
  if (!v) return ic_pj_fail(c, "has no result");
  json_t *val = ic_pj_op_attr(op, "value");
  json_t *d = val ? ic_pj_adata(val) : NULL;
  json_t *dt = ic_pj_op_attr(op, "dtype");
  int dtype = -1;
  if (!dt || !json_is_string(json_object_get(dt, "D")) ||
      !ic_pj_dtype_from_name(json_string_value(json_object_get(dt, "D")), &dtype) || dtype < 0) {
    return ic_pj_fail(c, "attribute 'dtype' is missing or not a known data type");
  }
  if (!c->b) {
    if (int_array) {
      if (!json_is_array(d)) return ic_pj_fail(c, "attribute 'value' is missing or not an array");
      v->kn = json_array_size(d);
      v->kints = ic_arena_calloc(c->arena, v->kn ? v->kn : 1, sizeof *v->kints);
      if (!v->kints) return ic_pj_oom(c);
      for (size_t i = 0; i < v->kn; i++) {
        json_t *e = json_array_get(d, i), *ed = json_object_get(e, "D");
        if (!json_is_integer(ed)) return ic_pj_fail(c, "attribute 'value': element %zu is not an integer", i);
        v->kints[i] = json_integer_value(ed);
      }
      v->konst = 2;
    } else {
      double x;
      if (json_is_object(d)) d = ic_pj_adata(d); /* a_scalar wraps a typed value */
      if (!d || !ic_pj_num_of(d, &x)) {
        return ic_pj_fail(c, "attribute 'value' is %s, expected a number", d ? ic_pj_jtype(d) : "missing");
      }
      json_t *shape = ic_pj_op_attr(op, "shape");
      json_t *sd = shape ? json_object_get(shape, "D") : NULL;
      if (!json_is_array(sd)) return ic_pj_fail(c, "attribute 'shape' is missing or not an int array");
      bool one = true; /* a single element: every dim is 1 */
      size_t i;
      json_t *e;
      json_array_foreach(sd, i, e) {
        if (!json_is_integer(e)) return ic_pj_fail(c, "attribute 'shape': element %zu is not an integer", i);
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
      if (!v32) return ic_pj_oom(c);
      for (size_t i = 0; i < v->kn; i++) v32[i] = (int32_t)v->kints[i];
      ic_builder_attr_ints(bop, "int32_values", v->kn, v32);
    } else {
      ic_builder_attr_longs(bop, "int64_values", v->kn, v->kints);
    }
  } else {
    bop = ic_builder_add_op(c->b, c->block, "fill_constant");
    json_t *shape = ic_pj_op_attr(op, "shape");
    if ((st = ic_pj_emit_attr(c, bop, "shape", shape))) return st;
    ic_builder_attr_int(bop, "dtype", dtype);
    ic_builder_attr_float(bop, "value", ic_pj_to_f32(v->kval));
    char sv[40];
    snprintf(sv, sizeof sv, "%.17g", v->kval);
    ic_builder_attr_string(bop, "str_value", sv);
  }
  return ic_pj_emit_values(c, bop, false, "Out", 1, &v);
}



/* The values of vs[0..n) (vector ones by their elements) into *all, skipping null
 * values and, with typed_only, results without a type (an optional result not produced). */
static ic_status flatten_values(ctx *c, pval **vs, size_t n, bool typed_only, pval ***all,
                                size_t *n_all) {
  size_t cap = 0;
  for (size_t k = 0; k < n; k++) {
    if (vs[k]) cap += ic_pj_resolve(vs[k])->is_vec ? ic_pj_resolve(vs[k])->n_elems : 1;
  }
  pval **a = ic_arena_calloc(c->arena, cap ? cap : 1, sizeof *a);
  if (!a) return ic_pj_oom(c);
  size_t m = 0;
  for (size_t k = 0; k < n; k++) {
    if (!vs[k]) continue;
    pval *v = ic_pj_resolve(vs[k]);
    size_t ne = v->is_vec ? v->n_elems : 1;
    for (size_t e = 0; e < ne; e++) {
      pval *x = v->is_vec ? ic_pj_resolve(v->elems[e]) : v;
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
      if (oa->in[k]) ic_pj_mark_use(oa->in[k]);
    }
    return IC_OK;
  }
  ic_builder_op *bop = ic_builder_add_op(c->b, c->block, c->opname);
  pval **vals;
  size_t n;
  ic_status st = flatten_values(c, oa->in, oa->n_in, false, &vals, &n);
  if (!st && n) st = ic_pj_emit_values(c, bop, true, "X", n, vals);
  if (!st) st = flatten_values(c, oa->out, oa->n_out, true, &vals, &n);
  if (!st && n) st = ic_pj_emit_values(c, bop, false, "Out", n, vals);
  return st;
}

/* A table op; inplace variants (relu_, batch_norm_) read as the plain op. */
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
  if (n_in > n_specs) return ic_pj_fail(c, "has %zu operands, icore reads at most %zu", n_in, n_specs);
  if (n_out > n_slots) return ic_pj_fail(c, "has %zu results, icore reads at most %zu", n_out, n_slots);
  const char *type = m->type;
  ic_builder_op *bop = first ? NULL : ic_builder_add_op(c->b, c->block, type);
  if (first && strcmp(base, "stack") == 0 && n_in == 1 && in[0] && n_out == 1 && out[0]) {
    pval *vec = ic_pj_resolve(in[0]);
    int64_t axis = -1;
    bool scalars = vec->is_vec && vec->n_elems > 0 && ic_pj_int_attr(c, op, "axis", &axis) == IC_OK &&
                   axis == 0;
    for (size_t e = 0; scalars && e < vec->n_elems; e++) {
      const pval *el = ic_pj_resolve(vec->elems[e]);
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
      return ic_pj_fail(c, "result %zu is %s, expected %s", k, out[k]->is_vec ? "a vector" : "a tensor",
                        sp.multi ? "a vector" : "a tensor");
    }
    if (bop) {
      if ((st = out[k]->is_vec ? ic_pj_emit_values(c, bop, false, sp.slot, out[k]->n_elems, out[k]->elems)
                               : ic_pj_emit_values(c, bop, false, sp.slot, 1, &out[k]))) {
        return st;
      }
    }
  }
  json_t *attrs = json_object_get(op, "A");
  if (attrs && !json_is_array(attrs)) return ic_pj_fail(c, "\"A\" is %s, expected an array", ic_pj_jtype(attrs));
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
    if ((st = ic_pj_emit_attr(c, bop, an, at))) return st;
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
    ic_builder_attr_int(bop, "in_dtype", ic_pj_resolve(in[0])->dtype);
  }
  if (is_reduce(m->type)) ic_builder_attr_bool(bop, "reduce_all", reduce_all);
  return IC_OK;
}


/* One op: its name decompressed, its operands checked (defined before, visible) and its
 * results defined (first walk) or found (second), then handed to its translation: a
 * builtin op's or a special pd_op's function, the control-flow ones, or a k_ops row. */
static ic_status walk_op(ctx *c, const json_t *op, long index) {
  ic_status st = IC_OK;
  c->op = index;
  c->opname = NULL;
  if (!json_is_object(op)) return ic_pj_fail(c, "op #%ld in block %d is %s, expected an object", index, c->block, ic_pj_jtype(op));
  json_t *idj = get(c, op, "#", JSON_STRING, true, "op", &st);
  if (!idj) {
    return ic_pj_fail(c, "op #%ld in block %d has no \"#\" naming it", index, c->block);
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
  if (!c->opname) return ic_pj_oom(c);
  const char *dialect_end = strchr(c->opname, '.');
  if (!dialect_end) return ic_pj_fail(c, "op name \"%s\" has no dialect", cname);
  size_t dl = (size_t)(dialect_end - c->opname);
  const char *name = dialect_end + 1;
  bool first = c->b == NULL;
  json_t *ins = json_object_get(op, "I");
  if (ins && !json_is_array(ins)) return ic_pj_fail(c, "\"I\" is %s, expected an array", ic_pj_jtype(ins));
  size_t n_in = json_array_size(ins);

  /* Check every operand first: defined before, visible. */
  pval **in = ic_arena_calloc(c->arena, n_in ? n_in : 1, sizeof *in);
  if (!in) return ic_pj_oom(c);
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
  ic_pj_translation fn = NULL;
  if (dl == 7 && strncmp(c->opname, "builtin", 7) == 0) {
    fn = ic_pj_special(true, &oa);
    return fn ? fn(c, op, &oa) : ic_pj_fail(c, "icore does not translate %s", c->opname);
  }
  bool pd = dl == 5 && strncmp(c->opname, "pd_op", 5) == 0;
  if (pd) fn = ic_pj_special(false, &oa);
  if (fn) return fn(c, op, &oa);
  json_t *regions = json_object_get(op, "regions");
  if (regions) return ic_pj_tr_regions(c, op, regions, pd, &oa);
  if (dl == 2 && strncmp(c->opname, "cf", 2) == 0) return ic_pj_tr_cf(c, op, &oa);
  /* a user's custom op: like an unknown pd_op, an op without a kernel */
  if (dl == 9 && strncmp(c->opname, "custom_op", 9) == 0) return tr_unknown(c, &oa);
  if (!pd) return ic_pj_fail(c, "icore does not translate ops of this dialect");
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
      pval *v = ic_pj_find_value(c, vid);
      /* a while body's arguments are its loop variables (alias): nothing to declare */
      if (v && !v->alias && !v->is_vec && v->has_type && (st = ic_pj_declare(c, v))) return st;
      continue;
    }
    if (vid >= 0) return ic_pj_fail(c, "%s has id %" PRId64 ", expected a negative id", aw, vid);
    if (ic_pj_find_value(c, vid)) return ic_pj_fail(c, "%s: value %%arg%" PRId64 " is defined twice", aw, -vid);
    pval *v = ic_pj_new_value(c, vid);
    if (!v) return ic_pj_oom(c);
    json_t *tt = json_object_get(e, "TT");
    if (tt && (st = read_type(c, tt, v, aw))) return st;
    const char *key = id_key(c, vid);
    if (!key || !ic_strmap_put(&c->values, key, v)) return ic_pj_oom(c);
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
ic_status ic_pj_walk_region(ctx *c, const json_t *region, int parent, int *first_block,
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
      if (!np) return ic_pj_oom(c);
      c->parents = np;
      c->cap_parents = nc;
    }
    c->parents[idx] = parent;
    if (c->b && idx > 0 && ic_builder_add_block(c->b, parent) != idx) return ic_pj_oom(c);
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
    return ic_pj_fail(c, "\"program\" has %zu regions, expected 1", json_array_size(regions));
  }
  int fb, nb;
  if ((st = ic_pj_walk_region(c, json_array_get(regions, 0), -1, &fb, &nb))) return st;
  if (nb != 1) return ic_pj_fail(c, "the program's region has %d blocks, expected 1", nb);
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
    st = ic_pj_oom(&c);
    goto done;
  }
  json_t *base = get(&c, root, "base_code", JSON_OBJECT, true, "the document", &st);
  if (!base) {
    if (!json_is_object(root)) st = ic_pj_fail(&c, "the document is %s, expected an object", ic_pj_jtype(root));
    else st = ic_pj_fail(&c, "no \"base_code\": not a PIR program (Paddle 3 writes {\"base_code\": "
                         "{\"magic\": \"pir\", ...}, \"program\": ...})");
    goto done;
  }
  json_t *magic = get(&c, base, "magic", JSON_STRING, true, "\"base_code\"", &st);
  if (!magic) goto done;
  if (strcmp(json_string_value(magic), "pir") != 0) {
    st = ic_pj_fail(&c, "\"base_code\".\"magic\" is \"%s\", expected \"pir\"", json_string_value(magic));
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
      st = ic_pj_fail(&c, "fetch columns are not 0..%zu (column %lld %s)", c.n_fetch - 1,
                      (long long)c.fetch[i].col, i && c.fetch[i].col == c.fetch[i - 1].col ? "appears twice" : "is missing before it");
      goto done;
    }
  }
  /* Second walk: emit. */
  if (!(c.b = ic_builder_create())) {
    st = ic_pj_oom(&c);
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
