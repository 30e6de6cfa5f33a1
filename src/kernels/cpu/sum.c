/* sum: Out = X[0] + X[1] + ... elementwise (phi AddNKernel, AddNInferMeta in
 * infermeta/multiary.cc; fluid sum_op.cc for the dtype check).
 *
 * No broadcasting: every input must have X[0]'s dtype and dims. (Paddle's shape check skips
 * zero-sized and rank-0 inputs, after which its kernel reads past the smaller ones; icore
 * requires equal dims instead.) The sum runs left to right in the input's own type, as
 * Paddle's does, so fp32 results round like Paddle's; integers wrap on overflow.
 *
 * A sum whose X variables are declared LoDTensorArrays (the backward's gradient accumulation
 * over an array read more than once) runs sum_array.c's definition instead (resolve below);
 * Paddle's SumOpVarTypeInference refuses a mix of arrays and other variables, and so does
 * icore. */
#include <string.h>

#include "kernels/kernel.h"

extern const ic_opdef ic_op_sum_array;

static ic_status resolve(const ic_program *p, const ic_op *op, const ic_opdef **def,
                         ic_err *err) {
  const ic_slot *x = ic_op_input(op, "X");
  const char *arr = NULL, *other = NULL;
  for (size_t i = 0; x && i < x->n; i++) {
    const ic_vardesc *d = ic_program_find_var(p, op->block, x->args[i]);
    bool is_array = d && d->type == IC_VAR_LOD_TENSOR_ARRAY;
    if (is_array && !arr) arr = x->args[i];
    if (!is_array && !other) other = x->args[i];
  }
  if (arr && other) {
    char where[160];
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: input X mixes LoDTensorArray '%s' with '%s', which is not one; sum "
                      "takes either all LoDTensorArrays or none, as Paddle's does",
                      ic_op_where(op, where, sizeof where), arr, other);
  }
  if (arr) *def = &ic_op_sum_array;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st;
  if ((st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM))) return st;
  const ic_tensor *x0 = ic_in(c, 0, 0);
  for (size_t i = 1; i < c->in[0].n; i++) {
    const ic_tensor *xi = ic_in(c, 0, i);
    if (xi->dtype != x0->dtype || !ic_dims_equal(xi->ndim, xi->dims, x0->ndim, x0->dims)) {
      char d[128];
      return ic_kfail_in(c, 0, i, "expected %s like X[0] '%s' (sum does not broadcast)",
                         ic_tensor_describe(x0, d, sizeof d), ic_in_name(c, 0, 0));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x0->dtype, x0->ndim, x0->dims);
  return IC_OK;
}

/* Integers add as unsigned so that overflow wraps as in Paddle without being undefined. */
#define ADD_IMPL(NAME, T, U)                                                             \
  static void NAME(T *out, const T *a, const T *b, int64_t n) {                          \
    for (int64_t k = 0; k < n; k++) out[k] = (T)((U)a[k] + (U)b[k]);                     \
  }
ADD_IMPL(add_f32, float, float)
ADD_IMPL(add_f64, double, double)
ADD_IMPL(add_i32, int32_t, uint32_t)
ADD_IMPL(add_i64, int64_t, uint64_t)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x0 = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int64_t n = ic_numel(x0->ndim, x0->dims);
  size_t nin = c->in[0].n;
  if (nin == 1) {
    memcpy(out->data, x0->data, (size_t)n * ic_dtype_size(x0->dtype));
    return IC_OK;
  }
  for (size_t i = 1; i < nin; i++) {
    /* out = x0 + x1 first, then out += xi: the order Paddle's kernel uses */
    const void *acc = i == 1 ? x0->data : out->data, *xi = ic_in(c, 0, i)->data;
    switch (x0->dtype) {
      case IC_FP32: add_f32(out->data, acc, xi, n); break;
      case IC_FP64: add_f64(out->data, acc, xi, n); break;
      case IC_INT32: add_i32(out->data, acc, xi, n); break;
      default: add_i64(out->data, acc, xi, n); break;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sum = {
    .name = "sum",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .resolve = resolve,
};
