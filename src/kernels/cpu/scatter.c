/* scatter: Out = X with rows Ids[i] (dim 0) replaced by Updates[i]. Ids int32 or int64, 1-D or
 * [K, 1]; Updates [K, X's other dims...] in X's dtype. With `overwrite` (the default) the last
 * update of a row wins; without it the rows named in Ids are zeroed and then every update of
 * a row is added to it (paddle/phi/kernels/cpu/scatter_kernel.cc, funcs/scatter.h,
 * ScatterInferMeta). An index outside [0, rows) is refused. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct scatter_attrs {
  bool overwrite;
} scatter_attrs;

static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Ids", 0}, {"Updates", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  scatter_attrs *a = attrs;
  a->overwrite = ic_ar_bool(r, "overwrite", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *ids = ic_in(c, 1, 0), *u = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st || (st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT))) return st;
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  if (!(ids->ndim == 1 || (ids->ndim == 2 && ids->dims[1] == 1))) {
    return ic_kfail_in(c, 1, 0, "expected [K] or [K, 1] indices");
  }
  if (u->dtype != x->dtype) return ic_kfail_in(c, 2, 0, "expected X's dtype");
  bool ok = u->ndim == x->ndim && u->dims[0] == ids->dims[0];
  for (int i = 1; ok && i < x->ndim; i++) ok = u->dims[i] == x->dims[i];
  if (!ok) {
    return ic_kfail_in(c, 2, 0, "expected [%lld, X's dims after the first] (one row per index)",
                       (long long)ids->dims[0]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define ADD_ROW(T)                                                        \
  for (int64_t j = 0; j < row; j++) ((T *)d)[j] += ((const T *)s)[j];

static ic_status run(ic_kctx *c) {
  const scatter_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *ids = ic_in(c, 1, 0), *u = ic_in(c, 2, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t rows = x->dims[0], K = ids->dims[0];
  const int64_t row = rows ? ic_tensor_numel_(x) / rows : 0;
  const size_t es = ic_dtype_size(x->dtype), rb = (size_t)row * es;
  for (int64_t i = 0; i < K; i++) {
    const int64_t id = ic_read_i64(ids, i);
    if (id < 0 || id >= rows) {
      return ic_kfail_in(c, 1, 0, "entry %lld is %lld, expected in [0, %lld)", (long long)i,
                         (long long)id, (long long)rows);
    }
  }
  if (o->data != x->data) memcpy(o->data, x->data, (size_t)rows * rb);
  char *out = o->data;
  const char *up = u->data;
  if (a->overwrite) {
    for (int64_t i = 0; i < K; i++) memcpy(out + (size_t)ic_read_i64(ids, i) * rb, up + (size_t)i * rb, rb);
    return IC_OK;
  }
  for (int64_t i = 0; i < K; i++) memset(out + (size_t)ic_read_i64(ids, i) * rb, 0, rb);
  for (int64_t i = 0; i < K; i++) {
    char *d = out + (size_t)ic_read_i64(ids, i) * rb;
    const char *s = up + (size_t)i * rb;
    switch (x->dtype) {
      case IC_FP32: ADD_ROW(float) break;
      case IC_FP64: ADD_ROW(double) break;
      case IC_INT32: ADD_ROW(int32_t) break;
      default: ADD_ROW(int64_t) break;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_scatter = {
    .name = "scatter", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(scatter_attrs), .parse = parse, .infer = infer, .cpu = run,
};
