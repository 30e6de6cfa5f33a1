/* scatter_nd_add: Out = X, then for every index row i of Index [..., k] (int32/int64, k <=
 * rank(X)) Out[Index[i]] += Updates[i], where Out[Index[i]] is the slice of X's dims after
 * the first k (paddle/phi/kernels/cpu/scatter_nd_add_kernel.cc, funcs/scatter.h ScatterNdAdd,
 * ScatterNdAddInferMeta). Updates is Index's dims without the last followed by X's dims after
 * the first k, in X's dtype. An index value v of dim j must lie in [-X.dims[j], X.dims[j]);
 * a negative one counts from the end, as in Paddle. Repeated indices accumulate in order. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_INDEX, IN_UPDATES };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_INDEX, 0), *u = ic_in(c, IN_UPDATES, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM);
  if (st || (st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT))) return st;
  if (idx->ndim < 1) return ic_kfail_in(c, IN_INDEX, 0, "expected rank >= 1 ([..., k])");
  const int64_t k = idx->dims[idx->ndim - 1];
  if (k > x->ndim) {
    return ic_kfail_in(c, IN_INDEX, 0, "has last dim %lld, expected at most X's rank %d",
                       (long long)k, x->ndim);
  }
  if (u->dtype != x->dtype) return ic_kfail_in(c, IN_UPDATES, 0, "expected X's dtype");
  const int want_rank = idx->ndim - 1 + x->ndim - (int)k;
  bool ok = u->ndim == want_rank;
  for (int i = 0; ok && i < idx->ndim - 1; i++) ok = u->dims[i] == idx->dims[i];
  for (int i = (int)k; ok && i < x->ndim; i++) ok = u->dims[idx->ndim - 1 + i - k] == x->dims[i];
  if (!ok) {
    return ic_kfail_in(c, IN_UPDATES, 0,
                       "expected Index's dims without the last followed by X's dims after the "
                       "first %lld (rank %d)",
                       (long long)k, want_rank);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define ADD(T, U) /* integers wrap, as in Paddle, through their unsigned type U */         \
  for (int64_t j = 0; j < slice; j++) ((T *)d)[j] = (T)((U)((T *)d)[j] + (U)((const T *)s)[j]);

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_INDEX, 0), *u = ic_in(c, IN_UPDATES, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t k = idx->dims[idx->ndim - 1];
  int64_t rows = 1; /* Index's dims without the last (k == 0: each row adds a whole X) */
  for (int i = 0; i < idx->ndim - 1; i++) rows *= idx->dims[i];
  int64_t slice = 1;
  for (int i = (int)k; i < x->ndim; i++) slice *= x->dims[i];
  const size_t es = ic_dtype_size(x->dtype);
  /* validate every index before writing */
  for (int64_t r = 0; r < rows; r++) {
    for (int64_t j = 0; j < k; j++) {
      const int64_t v = ic_read_i64(idx, r * k + j), d = x->dims[j];
      if (v < -d || v >= d) {
        return ic_kfail_in(c, IN_INDEX, 0, "entry %lld (row %lld, dim %lld) is %lld, expected in "
                           "[%lld, %lld)", (long long)(r * k + j), (long long)r, (long long)j,
                           (long long)v, (long long)-d, (long long)d);
      }
    }
  }
  if (o->data != x->data) memcpy(o->data, x->data, (size_t)ic_tensor_numel_(x) * es);
  for (int64_t r = 0; r < rows && slice; r++) {
    int64_t flat = 0;
    for (int64_t j = 0; j < k; j++) {
      int64_t v = ic_read_i64(idx, r * k + j);
      if (v < 0) v += x->dims[j];
      flat = flat * x->dims[j] + v;
    }
    char *d = (char *)o->data + (size_t)(flat * slice) * es;
    const char *s = (const char *)u->data + (size_t)(r * slice) * es;
    switch (x->dtype) {
      case IC_FP32: ADD(float, float) break;
      case IC_FP64: ADD(double, double) break;
      case IC_INT32: ADD(int32_t, uint32_t) break;
      default: ADD(int64_t, uint64_t) break;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Index", 0}, {"Updates", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_scatter_nd_add = {
    .name = "scatter_nd_add",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = 0, .infer = infer, .cpu = run,
};
