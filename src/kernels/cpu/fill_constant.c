/* fill_constant: Out = a tensor of `shape` and `dtype` (default float32) filled with one
 * value. The value comes from input ValueTensor if present, else from `str_value` when
 * non-empty ("inf", "-inf", "nan", "True", "False" or a number; it keeps the precision
 * that the float `value` loses), else from `value` (default 0; Paddle 2.5+ may write it as
 * a SCALAR). The shape comes from ShapeTensor, ShapeTensorList or `shape` (fill.h).
 * `force_cpu` and `place_type` only choose a device in Paddle and are ignored.
 *
 * Paddle (paddle/phi/common/scalar.h, ScalarBase(std::string)) reads str_value as a double;
 * icore reads a string that is a whole integer exactly, so int64 values beyond 2^53 keep
 * every digit (as the legacy fluid kernel did); elsewhere the two agree. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/fill.h"

/* A whole string as an integer or a double; false when it is neither. */
static bool parse_number(const char *s, ic_fill_scalar *v) {
  char *end;
  errno = 0;
  long long i = strtoll(s, &end, 10);
  if (end != s && *end == '\0' && errno == 0) {
    *v = (ic_fill_scalar){.is_int = true, .i = i, .f = (double)i};
    return true;
  }
  errno = 0;
  double f = strtod(s, &end);
  if (end == s || *end != '\0') return false;
  *v = (ic_fill_scalar){.f = f};
  return true;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fill_constant_attrs *a = attrs;
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  ic_fill_parse_dtype(r, "dtype", IC_FP32, IC_DT_ANY, &a->dtype);
  a->value.f = ic_ar_float(r, "value", 0.0);
  const char *s = ic_ar_str(r, "str_value", "");
  if (r->st || !*s) return r->st;
  if (!strcmp(s, "inf")) a->value.f = INFINITY;
  else if (!strcmp(s, "-inf")) a->value.f = -INFINITY;
  else if (!strcmp(s, "nan")) a->value.f = NAN;
  else if (!strcmp(s, "True")) a->value = (ic_fill_scalar){.is_int = true, .i = 1, .f = 1};
  else if (!strcmp(s, "False")) a->value = (ic_fill_scalar){.is_int = true};
  else if (!parse_number(s, &a->value)) {
    ic_ar_fail(r, "str_value", "is '%s', expected a number, inf, -inf, nan, True or False", s);
  }
  return r->st;
}

enum { IN_VALUE, IN_SHAPE, IN_SHAPE_LIST };

static ic_status infer(ic_kctx *c) {
  const fill_constant_attrs *a = c->attrs;
  const ic_tensor *v = ic_in(c, IN_VALUE, 0);
  ic_status st;
  if (v) {
    if ((st = ic_kcheck_dtype(c, IN_VALUE, 0, IC_DT_ANY))) return st;
    if (ic_tensor_numel_(v) < 1) return ic_kfail_in(c, IN_VALUE, 0, "expected one value");
  }
  int ndim;
  int64_t dims[IC_MAX_RANK];
  if ((st = ic_fill_shape(c, IN_SHAPE, IN_SHAPE_LIST, a->shape, a->n_shape, &ndim, dims))) {
    return st;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, ndim, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fill_constant_attrs *a = c->attrs;
  const ic_tensor *v = ic_in(c, IN_VALUE, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_fill_scalar value = v ? ic_fill_scalar_of(v) : a->value;
  ic_fill_store(out->data, out->dtype, ic_tensor_numel_(out), value);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"ValueTensor", IC_SLOT_OPTIONAL},
    {"ShapeTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"ShapeTensorList", IC_SLOT_OPTIONAL | IC_SLOT_VALUE | IC_SLOT_MULTI},
};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fill_constant = {
    .name = "fill_constant",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fill_constant_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
