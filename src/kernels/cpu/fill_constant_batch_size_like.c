/* fill_constant_batch_size_like: Out = a tensor of dims `shape` whose dim output_dim_idx is
 * replaced by Input's dim input_dim_idx (the batch size), filled with one value of `dtype`.
 * Input is read for its dims only.
 *
 * The value is str_value when that is non-empty (Paddle parses it as a double, so int64 values
 * keep more digits than the float attribute `value`; "inf", "-inf" and "nan" are accepted),
 * else `value`. A value outside the range of dtype is an error, as in Paddle's FullLikeKernel.
 * Paddle replaces the batch dim by the LoD's sequence count when Input carries a LoD and
 * input_dim_idx is 0; icore's kernels ignore LoD, so the dim is always used. force_cpu is moot
 * on the CPU. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/fill.h"

static bool supported_dtype(int64_t d) {
  switch (d) {
    case IC_BOOL: case IC_INT16: case IC_INT32: case IC_INT64: case IC_FP32: case IC_FP64:
    case IC_UINT8: case IC_INT8:
      return true;
    default:
      return false;
  }
}

/* Whether v fits dtype (NaN and infinities only fit the float types). */
static bool in_range(ic_dtype d, double v) {
  if (isnan(v) || isinf(v)) return d == IC_FP32 || d == IC_FP64;
  switch (d) {
    case IC_FP32: return v >= -FLT_MAX && v <= FLT_MAX;
    case IC_FP64: return true;
    case IC_BOOL: return true; /* any value converts: nonzero is true */
    case IC_INT8: return v >= -128.0 && v <= 127.0;
    case IC_UINT8: return v >= 0.0 && v <= 255.0;
    case IC_INT16: return v >= -32768.0 && v <= 32767.0;
    case IC_INT32: return v >= -2147483648.0 && v <= 2147483647.0;
    case IC_INT64: return v >= -9223372036854775808.0 && v < 9223372036854775808.0;
    default: return false;
  }
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fcbsl_attrs *a = attrs;
  const int64_t *shape;
  size_t n = 0;
  ic_ar_ints(r, "shape", true, &shape, &n);
  int64_t dtype = ic_ar_int(r, "dtype", IC_FP32);
  double value = ic_ar_float(r, "value", 0.0);
  const char *str_value = ic_ar_str(r, "str_value", "");
  a->input_dim_idx = ic_ar_int(r, "input_dim_idx", 0);
  a->output_dim_idx = ic_ar_int(r, "output_dim_idx", 0);
  (void)ic_ar_bool(r, "force_cpu", false);
  if (r->st) return r->st;
  if (n == 0 || n > IC_MAX_RANK) {
    return ic_ar_fail(r, "shape", "has %zu dims, expected 1 to %d", n, IC_MAX_RANK);
  }
  a->n_shape = (int)n;
  memcpy(a->shape, shape, n * sizeof *shape);
  if (a->input_dim_idx < 0) {
    return ic_ar_fail(r, "input_dim_idx", "is %lld, expected >= 0", (long long)a->input_dim_idx);
  }
  if (a->output_dim_idx < 0 || a->output_dim_idx >= (int64_t)n) {
    return ic_ar_fail(r, "output_dim_idx", "is %lld, expected in [0, %zu) for shape of rank %zu",
                      (long long)a->output_dim_idx, n, n);
  }
  if (!supported_dtype(dtype)) {
    const char *name = ic_dtype_name((int)dtype);
    if (name) {
      char where[160];
      r->st = ic_err_set(r->err, IC_ERR_UNSUPPORTED,
                         "%s: attribute 'dtype' is %s, which fill_constant_batch_size_like "
                         "does not fill in icore",
                         ic_op_where(r->op, where, sizeof where), name);
      return r->st;
    }
    return ic_ar_fail(r, "dtype", "is %lld, not a Paddle data type", (long long)dtype);
  }
  a->dtype = (ic_dtype)dtype;
  if (str_value[0]) {
    char *end;
    errno = 0;
    a->value = strtod(str_value, &end);
    if (end == str_value || *end || (errno == ERANGE && isinf(a->value))) {
      return ic_ar_fail(r, "str_value", "is \"%s\", expected a number", str_value);
    }
  } else {
    a->value = value;
  }
  if (!in_range(a->dtype, a->value)) {
    return ic_ar_fail(r, str_value[0] ? "str_value" : "value", "is %g, out of range for %s",
                      a->value, ic_dtype_name(a->dtype));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const fcbsl_attrs *a = c->attrs;
  const ic_tensor *in = ic_in(c, 0, 0);
  if (a->input_dim_idx >= in->ndim) {
    return ic_kfail_in(c, 0, 0, "attribute 'input_dim_idx' is %lld, expected < its rank %d",
                       (long long)a->input_dim_idx, in->ndim);
  }
  int64_t dims[IC_MAX_RANK];
  memcpy(dims, a->shape, sizeof dims);
  dims[a->output_dim_idx] = in->dims[a->input_dim_idx];
  for (int d = 0; d < a->n_shape; d++) {
    if (dims[d] < 0) {
      char buf[128];
      return ic_kfail(c, IC_ERR_SHAPE,
                      "attribute 'shape' is %s with dim %d replaced by dim %lld of input Input "
                      "'%s': dim %d is %lld, expected >= 0 (only output_dim_idx %lld may be -1)",
                      ic_dims_str(a->n_shape, a->shape, buf, sizeof buf), (int)a->output_dim_idx,
                      (long long)a->input_dim_idx, ic_in_name(c, 0, 0), d, (long long)dims[d],
                      (long long)a->output_dim_idx);
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, a->n_shape, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fcbsl_attrs *a = c->attrs;
  ic_tensor *out = ic_out(c, 0, 0);
  ic_fill_store_bits(out->data, ic_dtype_size(a->dtype), ic_tensor_numel_(out),
                     ic_fill_cast_bits(a->dtype, a->value));
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fill_constant_batch_size_like = {
    .name = "fill_constant_batch_size_like",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fcbsl_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
