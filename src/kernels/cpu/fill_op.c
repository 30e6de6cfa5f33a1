/* fill (the legacy fluid op): Out of the `shape` attribute's dims and the `dtype` attribute's
 * type (default float32; Paddle's CPU kernel takes float32, float64, int32, int64 and
 * float16), holding the first numel values of the float list `value` in row-major order, each
 * converted as static_cast<T>(float) does (truncation for integers, round to nearest even for
 * float16). `value` must hold at least numel values (Paddle would read past its end);
 * force_cpu changes nothing on the CPU. */
#include "kernels/cpu/fill.h"

#define ALLOWED                                                                            \
  (IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_INT32) | IC_DT(IC_INT64) | IC_DT(IC_FP16))

typedef struct fill_attrs {
  const double *value; /* borrowed from the program */
  size_t n_value;
  int ndim;
  int64_t dims[IC_MAX_RANK];
  ic_dtype dtype;
} fill_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fill_attrs *a = attrs;
  const int64_t *shape = NULL;
  size_t n_shape = 0;
  ic_ar_floats(r, "value", true, &a->value, &a->n_value);
  ic_ar_ints(r, "shape", true, &shape, &n_shape);
  ic_fill_parse_dtype(r, "dtype", IC_FP32, ALLOWED, &a->dtype);
  if (r->st) return r->st;
  if (n_shape > IC_MAX_RANK) {
    return ic_ar_fail(r, "shape", "has %zu dims, expected at most %d", n_shape, IC_MAX_RANK);
  }
  int64_t numel = 1;
  for (size_t k = 0; k < n_shape; k++) {
    if (shape[k] < 0) return ic_ar_fail(r, "shape", "has dim %zu = %lld, expected >= 0", k, (long long)shape[k]);
    a->dims[k] = shape[k];
    numel = shape[k] && numel > INT64_MAX / shape[k] ? INT64_MAX : numel * shape[k];
  }
  a->ndim = (int)n_shape;
  if ((uint64_t)numel > a->n_value) {
    return ic_ar_fail(r, "value", "holds %zu values, expected at least %lld (the numel of shape)",
                      a->n_value, (long long)numel);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const fill_attrs *a = c->attrs;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, a->ndim, a->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fill_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(o);
  const size_t es = ic_dtype_size(o->dtype);
  char *d = o->data;
  for (int64_t i = 0; i < n; i++) {
    /* the attribute is a float list: each value is a float32 before the cast */
    ic_fill_scalar v = {false, 0, (double)(float)a->value[i]};
    ic_fill_store(d + (size_t)i * es, o->dtype, 1, v);
  }
  return IC_OK;
}

static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fill = {
    .name = "fill",
    .n_inputs = 0, .inputs = NULL,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fill_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
