/* Typed attribute getters for op definitions (see program.h). */
#include <stdarg.h>
#include <stdio.h>

#include "program/program.h"

void ic_ar_init(ic_attr_reader *r, const ic_op *op, ic_err *err) {
  r->op = op;
  r->err = err;
  r->st = IC_OK;
}

bool ic_ar_has(const ic_attr_reader *r, const char *name) { return ic_op_attr(r->op, name) != NULL; }

ic_status ic_ar_fail(ic_attr_reader *r, const char *name, const char *fmt, ...) {
  if (r->st) return r->st; /* keep the first error */
  char where[160], detail[IC_ERRMSG_MAX / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  r->st = ic_err_set(r->err, IC_ERR_INVALID_PROGRAM, "%s: attribute '%s' %s",
                     ic_op_where(r->op, where, sizeof where), name, detail);
  return r->st;
}

static const ic_attr *get(ic_attr_reader *r, const char *name, bool required, const char *want) {
  const ic_attr *a = ic_op_attr(r->op, name);
  if (!a && required) ic_ar_fail(r, name, "is missing (required, %s)", want);
  return a;
}

static void wrong_type(ic_attr_reader *r, const ic_attr *a, const char *want) {
  ic_ar_fail(r, a->name, "is %s, expected %s", ic_attr_type_name(a->type), want);
}

static bool int_value(ic_attr_reader *r, const ic_attr *a, int64_t *v) {
  switch (a->type) {
    case IC_ATTR_INT: case IC_ATTR_LONG: case IC_ATTR_BOOLEAN: *v = a->i; return true;
    case IC_ATTR_SCALAR:
      if (!a->scalar_is_float) {
        *v = a->i;
        return true;
      }
      break;
    default: break;
  }
  wrong_type(r, a, "INT or LONG");
  return false;
}

int64_t ic_ar_int(ic_attr_reader *r, const char *name, int64_t dflt) {
  const ic_attr *a = get(r, name, false, "INT");
  int64_t v = dflt;
  if (a && !int_value(r, a, &v)) v = dflt;
  return v;
}

int64_t ic_ar_int_req(ic_attr_reader *r, const char *name) {
  const ic_attr *a = get(r, name, true, "INT");
  int64_t v = 0;
  if (a && !int_value(r, a, &v)) v = 0;
  return v;
}

static bool float_value(ic_attr_reader *r, const ic_attr *a, double *v) {
  switch (a->type) {
    case IC_ATTR_FLOAT: case IC_ATTR_FLOAT64: case IC_ATTR_SCALAR: *v = a->f; return true;
    case IC_ATTR_INT: case IC_ATTR_LONG: *v = (double)a->i; return true;
    default: break;
  }
  wrong_type(r, a, "FLOAT or FLOAT64");
  return false;
}

double ic_ar_float(ic_attr_reader *r, const char *name, double dflt) {
  const ic_attr *a = get(r, name, false, "FLOAT");
  double v = dflt;
  if (a && !float_value(r, a, &v)) v = dflt;
  return v;
}

double ic_ar_float_req(ic_attr_reader *r, const char *name) {
  const ic_attr *a = get(r, name, true, "FLOAT");
  double v = 0;
  if (a && !float_value(r, a, &v)) v = 0;
  return v;
}

bool ic_ar_bool(ic_attr_reader *r, const char *name, bool dflt) {
  const ic_attr *a = get(r, name, false, "BOOLEAN");
  if (!a) return dflt;
  if (a->type == IC_ATTR_BOOLEAN || a->type == IC_ATTR_INT || a->type == IC_ATTR_LONG) {
    return a->i != 0;
  }
  wrong_type(r, a, "BOOLEAN");
  return dflt;
}

const char *ic_ar_str(ic_attr_reader *r, const char *name, const char *dflt) {
  const ic_attr *a = get(r, name, false, "STRING");
  if (!a) return dflt;
  if (a->type == IC_ATTR_STRING) return a->s;
  wrong_type(r, a, "STRING");
  return dflt;
}

/* An empty list has no element type to tell: Paddle 3's PIR JSON writes an empty float list
 * (bilinear_interp's "scale") as an untyped empty array, read as INTS. Any list reader takes
 * an empty list of any type. */
static bool empty_list(const ic_attr *a) {
  switch (a->type) {
    case IC_ATTR_INTS:
    case IC_ATTR_FLOATS:
    case IC_ATTR_STRINGS:
    case IC_ATTR_BOOLEANS:
    case IC_ATTR_LONGS:
    case IC_ATTR_FLOAT64S:
    case IC_ATTR_SCALARS:
      return a->n == 0;
    default:
      return false;
  }
}

bool ic_ar_ints(ic_attr_reader *r, const char *name, bool required, const int64_t **v,
                size_t *n) {
  static const int64_t none[1] = {0};
  *v = none;
  *n = 0;
  const ic_attr *a = get(r, name, required, "INTS or LONGS");
  if (!a) return false;
  if (a->type == IC_ATTR_INTS || a->type == IC_ATTR_LONGS || a->type == IC_ATTR_BOOLEANS) {
    *v = a->ints;
    *n = a->n;
    return true;
  }
  if (empty_list(a)) return true;
  wrong_type(r, a, "INTS or LONGS");
  return false;
}

bool ic_ar_floats(ic_attr_reader *r, const char *name, bool required, const double **v,
                  size_t *n) {
  static const double none[1] = {0};
  *v = none;
  *n = 0;
  const ic_attr *a = get(r, name, required, "FLOATS");
  if (!a) return false;
  if (a->type == IC_ATTR_FLOATS || a->type == IC_ATTR_FLOAT64S || a->type == IC_ATTR_SCALARS) {
    *v = a->floats;
    *n = a->n;
    return true;
  }
  if (empty_list(a)) return true;
  wrong_type(r, a, "FLOATS or FLOAT64S");
  return false;
}
