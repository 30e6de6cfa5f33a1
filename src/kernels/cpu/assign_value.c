/* assign_value: Out = a constant tensor of `shape` and `dtype` (default float32) holding the
 * values written in the program: the SCALARS attribute `values` (Paddle 2.6+), else by dtype
 * the list Paddle 2.x wrote (bool_values, int32_values, int64_values, fp32_values,
 * fp64_values), or the first non-empty one. Values are converted to the dtype as Paddle's
 * static_cast does; `values` arrives as doubles, so its integers are exact up to 2^53. The
 * count must equal the shape's element count (paddle/phi/kernels/impl/assign_kernel_impl.h
 * AssignValueKernel). The input ValuesTensor (a tensor instead of the list) is not
 * supported. */
#include "kernels/cpu/fill.h"

typedef struct assign_value_attrs {
  const int64_t *shape, *ints;
  const double *floats;
  size_t n_shape, n;
  ic_dtype dtype;
} assign_value_attrs;

static const ic_slotdef k_inputs[1] = {{"ValuesTensor", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  assign_value_attrs *a = attrs;
  ic_ar_ints(r, "shape", true, &a->shape, &a->n_shape);
  ic_fill_parse_dtype(r, "dtype", IC_FP32,
                      IC_DT(IC_BOOL) | IC_DT(IC_INT8) | IC_DT(IC_UINT8) | IC_DT(IC_INT16) |
                          IC_DT_NUM,
                      &a->dtype);
  if (r->st) return r->st;
  if (ic_ar_floats(r, "values", false, &a->floats, &a->n) && a->n > 0) return r->st;
  a->floats = NULL;
  a->n = 0;
  switch (a->dtype) {
    case IC_FP32: ic_ar_floats(r, "fp32_values", false, &a->floats, &a->n); break;
    case IC_FP64: ic_ar_floats(r, "fp64_values", false, &a->floats, &a->n); break;
    case IC_INT64: ic_ar_ints(r, "int64_values", false, &a->ints, &a->n); break;
    case IC_BOOL: ic_ar_ints(r, "bool_values", false, &a->ints, &a->n); break;
    default: ic_ar_ints(r, "int32_values", false, &a->ints, &a->n); break;
  }
  /* Paddle 3's legacy program format files the values by the type of their Scalars, not by
   * dtype (float64 values in fp32_values, Python ints in int64_values), and Paddle reads the
   * first non-empty list of bool, fp32, int32, int64: so does icore (oracle case
   * a2_set_value_legacy). */
  static const char *const lists[] = {"bool_values", "fp32_values", "int32_values",
                                      "int64_values", "fp64_values"};
  for (size_t i = 0; i < 5 && !r->st && !a->n; i++) {
    bool is_float = i == 1 || i == 4;
    a->floats = NULL, a->ints = NULL;
    bool got = is_float ? ic_ar_floats(r, lists[i], false, &a->floats, &a->n)
                        : ic_ar_ints(r, lists[i], false, &a->ints, &a->n);
    if (!got || !a->n) a->floats = NULL, a->ints = NULL, a->n = 0;
  }
  if (!r->st && a->n_shape > IC_MAX_RANK) {
    ic_ar_fail(r, "shape", "has %zu dims, at most %d", a->n_shape, IC_MAX_RANK);
  }
  for (size_t i = 0; !r->st && i < a->n_shape; i++) {
    if (a->shape[i] < 0) ic_ar_fail(r, "shape", "holds %lld", (long long)a->shape[i]);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const assign_value_attrs *a = c->attrs;
  if (ic_in(c, 0, 0)) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "input ValuesTensor '%s' is not supported",
                    ic_in_name(c, 0, 0));
  }
  int64_t n = ic_numel((int)a->n_shape, a->shape);
  if (n != (int64_t)a->n) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "%zu values written for shape of %lld elements", a->n, (long long)n);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, (int)a->n_shape, a->shape);
  return IC_OK;
}

static ic_status assign_value_cpu(ic_kctx *c) {
  const assign_value_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  size_t es = ic_dtype_size(o->dtype);
  for (size_t i = 0; i < a->n; i++) {
    ic_fill_scalar v = a->floats ? (ic_fill_scalar){false, 0, a->floats[i]}
                                 : (ic_fill_scalar){true, a->ints[i], (double)a->ints[i]};
    ic_fill_store((char *)o->data + i * es, o->dtype, 1, v);
  }
  return IC_OK;
}

const ic_opdef ic_op_assign_value = {
    .name = "assign_value", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(assign_value_attrs), .parse = parse,
    .infer = infer, .cpu = assign_value_cpu,
};
