/* The PIR ops translated by a function of their own rather than by a row of the op table
 * (pir_ops.c): builtin.parameter, combine and split, and pd_op's data / feed, fetch, arange,
 * shape64, assign_value, full and full_int_array (the tensor-array ops are in pir_cf.c).
 * ic_pj_special finds the one an op takes; pir_json.c walks the program and calls it. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/pir_json_impl.h"

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
    if (!json_is_string(nj)) return ic_pj_fail(c, "\"A\" must be [.., .., .., NAME] with a string name");
    pname = json_string_value(nj);
  } else if ((st = ic_pj_str_attr(c, op, "parameter_name", &pname))) {
    return st;
  }
  if (!out0) return ic_pj_fail(c, "has no result");
  if (first) {
    out0->name = pname;
    out0->fixed = true;
    out0->persistable = ic_pj_param_persistable(op);
    return IC_OK;
  }
  /* One variable per name: Paddle emits a parameter op per use of some shared ones
   * (each pd_op.rnn reads its own op for "dropout_state__non_persistable"). */
  if (ic_strmap_get(&c->params, pname)) {
    out0->declared = true;
    return IC_OK;
  }
  if (!ic_strmap_put(&c->params, pname, out0)) return ic_pj_oom(c);
  return ic_pj_declare(c, out0);
}

/* builtin.combine: a vector of values (an op's list operand), kept as a value of its own. */
static ic_status tr_combine(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  pval *out0 = oa->out0;
  bool first = oa->first;
  if (!first) return IC_OK;
  if (!out0) return ic_pj_fail(c, "has no result");
  out0->is_vec = true;
  out0->n_elems = n_in;
  out0->elems = ic_arena_calloc(c->arena, n_in ? n_in : 1, sizeof *out0->elems);
  if (!out0->elems) return ic_pj_oom(c);
  for (size_t k = 0; k < n_in; k++) {
    if (!in[k]) return ic_pj_fail(c, "operand %zu is the null value", k);
    if (ic_pj_resolve(in[k])->is_vec) return ic_pj_fail(c, "operand %zu is a vector; vectors of vectors are not supported", k);
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
  pval *vec = n_in == 1 && in[0] ? ic_pj_resolve(in[0]) : NULL;
  if (!vec || !vec->is_vec) return ic_pj_fail(c, "expected one vector operand");
  if (vec->n_elems != n_out) {
    return ic_pj_fail(c, "splits a vector of %zu into %zu results", vec->n_elems, n_out);
  }
  for (size_t k = 0; k < n_out; k++) {
    if (out[k]) out[k]->alias = vec->elems[k];
  }
  return IC_OK;
}

/* data (what save_inference_model and jit.save write) or feed: a feed target by name */
static ic_status tr_data(ctx *c, const json_t *op, const pir_opargs *oa) {
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  const char *dname;
  if ((st = ic_pj_str_attr(c, op, "name", &dname))) return st;
  if (!out0) return ic_pj_fail(c, "has no result");
  if (first) {
    out0->name = dname;
    out0->fixed = true;
    return IC_OK;
  }
  if ((st = ic_pj_declare(c, out0))) return st;
  ic_builder_feed(c->b, out0->name);
  return IC_OK;
}

/* pd_op.fetch: a fetch target (column `col`), emitted at the end in column order. */
static ic_status tr_fetch(ctx *c, const json_t *op, const pir_opargs *oa) {
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (n_in != 1 || !in[0]) return ic_pj_fail(c, "expected one operand");
  pval *v = ic_pj_resolve(in[0]);
  if (v->is_vec) return ic_pj_fail(c, "fetches a vector");
  if (c->block != 0) return ic_pj_fail(c, "fetch ops must be in block 0");
  if (!first) return IC_OK; /* emitted at the end, by col */
  const char *fname;
  int64_t col = 0;
  if ((st = ic_pj_str_attr(c, op, "name", &fname)) || (st = ic_pj_int_attr(c, op, "col", &col))) return st;
  if (col < 0 || col > 1000000) return ic_pj_fail(c, "attribute 'col' is %" PRId64, col);
  if (!v->fixed) {
    v->name = fname;
    v->fixed = true;
  }
  v->tensor_use = true;
  if (c->n_fetch == c->cap_fetch) {
    size_t nc = c->cap_fetch ? c->cap_fetch * 2 : 8;
    fetchref *nf = realloc(c->fetch, nc * sizeof *nf);
    if (!nf) return ic_pj_oom(c);
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
  if (n_in != 3 || n_out != 1 || !out0) return ic_pj_fail(c, "expected 3 operands and one result");
  for (size_t k = 0; k < 3; k++) {
    if (!in[k] || ic_pj_resolve(in[k])->is_vec) return ic_pj_fail(c, "operand %zu must be a tensor", k);
  }
  if (first) {
    for (size_t k = 0; k < 3; k++) ic_pj_mark_use(in[k]);
    return IC_OK;
  }
  static const char *const slots[3] = {"Start", "End", "Step"};
  pval *cv[3];
  for (size_t k = 0; k < 3; k++) {
    if (!(cv[k] = ic_pj_new_value(c, out0->id))) return ic_pj_oom(c);
    char tn[64];
    snprintf(tn, sizeof tn, "%s.%s", out0->name, slots[k]);
    if (!(cv[k]->name = ic_arena_strdup(c->arena, tn))) return ic_pj_oom(c);
    cv[k]->has_type = cv[k]->tensor = true;
    cv[k]->dtype = out0->dtype;
    cv[k]->dtype_name = out0->dtype_name;
    cv[k]->ndim = 1;
    cv[k]->dims[0] = 1;
    ic_builder_op *cast = ic_builder_add_op(c->b, c->block, "cast");
    ic_builder_attr_int(cast, "in_dtype", ic_pj_resolve(in[k])->dtype);
    ic_builder_attr_int(cast, "out_dtype", out0->dtype);
    if ((st = ic_pj_emit_values(c, cast, true, "X", 1, &in[k])) ||
        (st = ic_pj_emit_values(c, cast, false, "Out", 1, &cv[k]))) {
      return st;
    }
  }
  ic_builder_op *range = ic_builder_add_op(c->b, c->block, "range");
  for (size_t k = 0; k < 3; k++) {
    if ((st = ic_pj_emit_values(c, range, true, slots[k], 1, &cv[k]))) return st;
  }
  return ic_pj_emit_values(c, range, false, "Out", 1, &out0);
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
  if (n_in != 1 || !in[0] || ic_pj_resolve(in[0])->is_vec || n_out != 1 || !out0) {
    return ic_pj_fail(c, "expected one tensor operand and one result");
  }
  if (first) {
    ic_pj_mark_use(in[0]);
    return IC_OK;
  }
  pval *tmp = ic_pj_new_value(c, out0->id);
  if (!tmp) return ic_pj_oom(c);
  char tn[48];
  snprintf(tn, sizeof tn, "%s.i32", out0->name);
  if (!(tmp->name = ic_arena_strdup(c->arena, tn))) return ic_pj_oom(c);
  tmp->has_type = tmp->tensor = true;
  tmp->dtype = IC_INT32;
  tmp->ndim = 1;
  tmp->dims[0] = out0->ndim == 1 ? out0->dims[0] : -1;
  ic_builder_op *sh = ic_builder_add_op(c->b, c->block, "shape");
  if ((st = ic_pj_emit_values(c, sh, true, "Input", 1, &in[0])) ||
      (st = ic_pj_emit_values(c, sh, false, "Out", 1, &tmp))) {
    return st;
  }
  ic_builder_op *cast = ic_builder_add_op(c->b, c->block, "cast");
  ic_builder_attr_int(cast, "in_dtype", IC_INT32);
  ic_builder_attr_int(cast, "out_dtype", IC_INT64);
  if ((st = ic_pj_emit_values(c, cast, true, "X", 1, &tmp))) return st;
  return ic_pj_emit_values(c, cast, false, "Out", 1, &out0);
}

/* A constant tensor: values as doubles whatever the dtype. The inplace variant's operand
 * is only the buffer it overwrites. The ProgramDesc op keeps one list per dtype. */
static ic_status tr_assign_value(ctx *c, const json_t *op, const pir_opargs *oa) {
  size_t n_out = oa->n_out;
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (n_out != 1 || !out0) return ic_pj_fail(c, "expected one result");
  if (first) return IC_OK;
  json_t *vals = ic_pj_op_attr(op, "values"), *vd = vals ? json_object_get(vals, "D") : NULL;
  json_t *dt = ic_pj_op_attr(op, "dtype"), *dd = dt ? json_object_get(dt, "D") : NULL;
  int dtype;
  if (!json_is_array(vd)) return ic_pj_fail(c, "attribute 'values' is missing or not an array");
  if (!json_is_string(dd) || !ic_pj_dtype_from_name(json_string_value(dd), &dtype)) {
    return ic_pj_fail(c, "attribute 'dtype' is missing or not a known data type");
  }
  size_t n = json_array_size(vd);
  double *v = ic_arena_calloc(c->arena, n ? n : 1, sizeof *v);
  if (!v) return ic_pj_oom(c);
  for (size_t i = 0; i < n; i++) {
    json_t *e = ic_pj_adata(json_array_get(vd, i));
    if (json_is_object(e)) e = ic_pj_adata(e); /* a_scalar */
    if (json_is_boolean(e)) v[i] = json_is_true(e);
    else if (!ic_pj_num_of(e, &v[i])) return ic_pj_fail(c, "attribute 'values': element %zu is not a number", i);
  }
  ic_builder_op *bop = ic_builder_add_op(c->b, c->block, "assign_value");
  if ((st = ic_pj_emit_attr(c, bop, "shape", ic_pj_op_attr(op, "shape")))) return st;
  ic_builder_attr_int(bop, "dtype", dtype);
  switch (dtype) {
    case IC_FP32: case IC_FP64: {
      if (dtype == IC_FP64) {
        ic_builder_attr_doubles(bop, "fp64_values", n, v);
        break;
      }
      float *f = ic_arena_calloc(c->arena, n ? n : 1, sizeof *f);
      if (!f) return ic_pj_oom(c);
      for (size_t i = 0; i < n; i++) f[i] = ic_pj_to_f32(v[i]);
      ic_builder_attr_floats(bop, "fp32_values", n, f);
      break;
    }
    case IC_INT32: case IC_INT64: case IC_BOOL: {
      int64_t *l = ic_arena_calloc(c->arena, n ? n : 1, sizeof *l);
      int32_t *w = ic_arena_calloc(c->arena, n ? n : 1, sizeof *w);
      bool *b = ic_arena_calloc(c->arena, n ? n : 1, sizeof *b);
      if (!l || !w || !b) return ic_pj_oom(c);
      for (size_t i = 0; i < n; i++) {
        if (v[i] != floor(v[i]) || fabs(v[i]) > 9007199254740992.0 ||
            (dtype == IC_INT32 && fabs(v[i]) > 2147483647.0)) {
          return ic_pj_fail(c, "attribute 'values': element %zu (%g) is not a %s", i, v[i],
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
      return ic_pj_fail(c, "dtype %s is not supported", json_string_value(dd));
  }
  return ic_pj_emit_values(c, bop, false, "Out", 1, &out0);
}

/* pd_op.full and full_int_array: constants (ic_pj_do_constant). */
static ic_status tr_full(ctx *c, const json_t *op, const pir_opargs *oa) {
  return ic_pj_do_constant(c, op, strcmp(oa->name, "full_int_array") == 0, oa->out0);
}

/* The slice_array_dense that ic_pj_tr_array_read_back takes: a constant negative index. */
static bool negative_array_index(const pir_opargs *oa) {
  const pval *i = oa->n_in == 2 && oa->in[0] && oa->in[1] && oa->out0 ? ic_pj_resolve(oa->in[1]) : NULL;
  return i && i->konst == 2 && i->kn == 1 && i->kints[0] < 0;
}

/* The ops translated by a function of their own rather than by a k_ops row (pir_ops.c), by
 * dialect; `when`, if set, narrows an entry to the operands it handles (the others go on to
 * the table). */
typedef struct pir_special {
  const char *name;
  ic_pj_translation fn;
  bool (*when)(const pir_opargs *oa);
} pir_special;

static const pir_special k_builtin_ops[] = {
    {"combine", tr_combine, NULL},
    {"parameter", tr_parameter, NULL},
    {"split", tr_split, NULL},
};

static const pir_special k_pd_special_ops[] = {
    {"arange", tr_arange, NULL},
    {"array_write_", ic_pj_tr_array_write, NULL},
    {"assign_value", tr_assign_value, NULL},
    {"assign_value_", tr_assign_value, NULL},
    {"create_array", ic_pj_tr_create_array, NULL},
    {"data", tr_data, NULL},
    {"feed", tr_data, NULL},
    {"fetch", tr_fetch, NULL},
    {"full", tr_full, NULL},
    {"full_int_array", tr_full, NULL},
    {"shape64", tr_shape64, NULL},
    {"slice_array_dense", ic_pj_tr_array_read_back, negative_array_index},
};

static const pir_special *find_special(const pir_special *t, size_t n, const pir_opargs *oa) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(t[i].name, oa->name) == 0 && (!t[i].when || t[i].when(oa))) return &t[i];
  }
  return NULL;
}

ic_pj_translation ic_pj_special(bool builtin, const pir_opargs *oa) {
  const pir_special *s =
      builtin ? find_special(k_builtin_ops, sizeof k_builtin_ops / sizeof k_builtin_ops[0], oa)
              : find_special(k_pd_special_ops, sizeof k_pd_special_ops / sizeof k_pd_special_ops[0], oa);
  return s ? s->fn : NULL;
}
