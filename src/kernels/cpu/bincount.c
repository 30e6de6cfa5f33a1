/* bincount: Out[v] = how many times (or, with Weights, the sum of the weights where) the
 * 1-D nonnegative int32/int64 X holds v, for v below max(max(X) + 1, minlength). Out is int64
 * without Weights, float32 for float32 Weights and float64 for float64, int32 or int64
 * Weights (of X's dims), summed in X's order (paddle/phi/kernels/cpu/bincount_kernel.cc,
 * BincountInferMeta). Out's size depends on X's values. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct bincount_attrs {
  int64_t minlength;
} bincount_attrs;

static const ic_slotdef k_inputs[2] = {{"X", IC_SLOT_VALUE},
                                       {"Weights", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  bincount_attrs *a = attrs;
  a->minlength = ic_ar_int(r, "minlength", 0);
  if (r->st == IC_OK && a->minlength < 0) {
    ic_ar_fail(r, "minlength", "is %lld, expected at least 0", (long long)a->minlength);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const bincount_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_INT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *w = ic_in(c, 1, 0);
  if (x->ndim != 1) return ic_kfail_in(c, 0, 0, "expected 1 dim");
  ic_dtype dt = IC_INT64;
  if (w) {
    st = ic_kcheck_dtype(c, 1, 0, IC_DT_NUM);
    if (st) return st;
    if (!ic_dims_equal(w->ndim, w->dims, x->ndim, x->dims)) {
      return ic_kfail_in(c, 1, 0, "expected the dims of X '%s'", ic_in_name(c, 0, 0));
    }
    dt = w->dtype == IC_FP32 ? IC_FP32 : IC_FP64;
  }
  int64_t n = x->dims[0], len = a->minlength;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = ic_read_i64(x, i);
    if (v < 0) {
      return ic_kfail_in(c, 0, 0, "holds %lld at %lld, expected values of at least 0",
                         (long long)v, (long long)i);
    }
    if (v + 1 > len) len = v + 1;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), dt, 1, &len);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *w = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = x->dims[0], len = o->dims[0];
  if (len == 0) return IC_OK;
  memset(o->data, 0, (size_t)len * ic_dtype_size(o->dtype));
  for (int64_t i = 0; i < n; i++) {
    int64_t v = ic_read_i64(x, i);
    if (!w) ((int64_t *)o->data)[v] += 1;
    else if (o->dtype == IC_FP32) ((float *)o->data)[v] += ((const float *)w->data)[i];
    else ((double *)o->data)[v] += ic_read_f64(w, i);
  }
  return IC_OK;
}

const ic_opdef ic_op_bincount = {
    .name = "bincount", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(bincount_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
