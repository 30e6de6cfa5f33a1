/* index_add: Out = X with AddValue's slice j along `axis` (default 0, negative from the end)
 * added to X's slice Index[j] (1-D int32/int64, each in [-n, n) for the axis's size n,
 * negative from the end; repeated indices add up, in order). AddValue has X's dims but the
 * axis's, which is Index's length. float32, float64, int32, int64 (integers wrap)
 * (paddle/phi/kernels/cpu/index_add_impl.h, IndexAddInferMeta). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct index_add_attrs {
  int64_t axis;
} index_add_attrs;

enum { IN_X, IN_INDEX, IN_ADD };
static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Index", 0}, {"AddValue", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  index_add_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const index_add_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM);
  if (!st) st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *ix = ic_in(c, IN_INDEX, 0), *v = ic_in(c, IN_ADD, 0);
  if (x->ndim == 0) return ic_kfail_in(c, IN_X, 0, "expected at least 1 dim");
  int ax = ic_kaxis(c, a->axis, x->ndim, "axis");
  if (ax < 0) return c->err->code;
  if (ix->ndim != 1) return ic_kfail_in(c, IN_INDEX, 0, "expected 1 dim");
  bool ok = v->dtype == x->dtype && v->ndim == x->ndim;
  for (int i = 0; ok && i < x->ndim; i++) ok = v->dims[i] == (i == ax ? ix->dims[0] : x->dims[i]);
  if (!ok) {
    return ic_kfail_in(c, IN_ADD, 0,
                       "expected the dtype and dims of X '%s' but %lld (Index's length) along "
                       "axis %d",
                       ic_in_name(c, IN_X, 0), (long long)ix->dims[0], ax);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define ADD_ROW(T, U)                                                                  \
  do {                                                                                 \
    T *d = (T *)(op + (size_t)(o * n + i) * row);                                      \
    const T *s = (const T *)(vp + (size_t)(o * m + j) * row);                          \
    for (int64_t e = 0; e < inner; e++) d[e] = (T)((U)d[e] + (U)s[e]);                 \
  } while (0)

static ic_status run(ic_kctx *c) {
  const index_add_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *ix = ic_in(c, IN_INDEX, 0), *v = ic_in(c, IN_ADD, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int ax = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  int64_t n = x->dims[ax], m = ix->dims[0], outer = ic_numel(ax, x->dims);
  int64_t inner = ic_numel(x->ndim - ax - 1, x->dims + ax + 1);
  size_t row = ic_dtype_size(x->dtype) * (size_t)inner;
  for (int64_t j = 0; j < m; j++) {
    int64_t i = ic_read_i64(ix, j);
    if (i < -n || i >= n) {
      return ic_kfail_in(c, IN_INDEX, 0, "holds %lld at %lld, expected in [%lld, %lld)",
                         (long long)i, (long long)j, (long long)-n, (long long)n);
    }
  }
  if (outer * n * inner == 0) return IC_OK;
  memcpy(out->data, x->data, row * (size_t)(outer * n));
  char *op = out->data;
  const char *vp = v->data;
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t j = 0; j < m; j++) {
      int64_t i = ic_read_i64(ix, j);
      if (i < 0) i += n;
      switch (x->dtype) {
        case IC_FP32: ADD_ROW(float, float); break;
        case IC_FP64: ADD_ROW(double, double); break;
        case IC_INT32: ADD_ROW(int32_t, uint32_t); break;
        default: ADD_ROW(int64_t, uint64_t); break;
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_index_add = {
    .name = "index_add", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(index_add_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
