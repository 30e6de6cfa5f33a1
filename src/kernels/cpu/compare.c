/* The comparison and binary logical engine (see compare.h). Semantics follow
 * paddle/phi/kernels/funcs/compare_functors.h and logical_functor.h: float comparisons are
 * IEEE (a NaN compares false except with not_equal), equal on floats is exact ==, and a
 * logical op reads each operand as bool (nonzero, NaN included, is true). `axis` is honoured
 * as Paddle 2.x does; Paddle 3.3 ignores it and aligns trailing dims only (it then rejects the
 * shapes where the two differ). */
#include "kernels/cpu/compare.h"

#include <stdio.h>

#define CMP_DTYPES                                                                         \
  (IC_DT(IC_BOOL) | IC_DT(IC_UINT8) | IC_DT(IC_INT8) | IC_DT(IC_INT16) | IC_DT_NUM)

ic_status ic_logical_parse(ic_attr_reader *r, void *attrs) {
  ic_elementwise_attrs *a = attrs;
  a->axis = -1;
  return r->st;
}

static ic_status infer_common(ic_kctx *c, bool same_dtype) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, CMP_DTYPES);
  if (!st) st = ic_kcheck_dtype(c, 1, 0, CMP_DTYPES);
  if (st) return st;
  if (same_dtype && y->dtype != x->dtype) {
    char dx[128], dy[128];
    return ic_kfail(c, IC_ERR_SHAPE, "inputs X '%s' %s and Y '%s' %s must have the same dtype",
                    ic_in_name(c, 0, 0), ic_tensor_describe(x, dx, sizeof dx),
                    ic_in_name(c, 1, 0), ic_tensor_describe(y, dy, sizeof dy));
  }
  const ic_elementwise_attrs *a = c->attrs;
  ic_bcast b;
  if ((st = ic_bcast_plan(c, 0, 1, a->axis, &b))) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_BOOL, b.ndim, b.out);
  return IC_OK;
}

ic_status ic_compare_infer(ic_kctx *c) { return infer_common(c, true); }
ic_status ic_logical_infer(ic_kctx *c) { return infer_common(c, false); }

/* One row of n elements; x and y step by sx and sy (0 or 1). */
#define CMP_ROW(T, OPEXPR)                                                                 \
  do {                                                                                     \
    const T *xp = (const T *)x_, *yp = (const T *)y_;                                      \
    for (int64_t k = 0; k < n; k++) {                                                      \
      T a = xp[k * sx], b = yp[k * sy];                                                    \
      o[k] = (uint8_t)(OPEXPR);                                                            \
    }                                                                                      \
  } while (0)

#define CMP_SWITCH(T)                                                                      \
  switch (op) {                                                                            \
    case IC_CMP_LT: CMP_ROW(T, a < b); break;                                              \
    case IC_CMP_LE: CMP_ROW(T, a <= b); break;                                             \
    case IC_CMP_GT: CMP_ROW(T, a > b); break;                                              \
    case IC_CMP_GE: CMP_ROW(T, a >= b); break;                                             \
    case IC_CMP_EQ: CMP_ROW(T, a == b); break;                                             \
    default: CMP_ROW(T, a != b); break;                                                    \
  }

static void cmp_row(ic_cmp_op op, ic_dtype dt, uint8_t *o, const void *x_, const void *y_,
                    int64_t n, int64_t sx, int64_t sy) {
  switch (dt) {
    case IC_FP32: CMP_SWITCH(float); break;
    case IC_FP64: CMP_SWITCH(double); break;
    case IC_INT32: CMP_SWITCH(int32_t); break;
    case IC_INT64: CMP_SWITCH(int64_t); break;
    case IC_INT16: CMP_SWITCH(int16_t); break;
    case IC_INT8: CMP_SWITCH(int8_t); break;
    default: CMP_SWITCH(uint8_t); break; /* bool, uint8 */
  }
}

/* Element k of a row as a bool. */
static bool truth(ic_dtype dt, const char *p, int64_t k) {
  switch (dt) {
    case IC_FP32: return ((const float *)p)[k] != 0;
    case IC_FP64: return ((const double *)p)[k] != 0;
    case IC_INT32: return ((const int32_t *)p)[k] != 0;
    case IC_INT64: return ((const int64_t *)p)[k] != 0;
    case IC_INT16: return ((const int16_t *)p)[k] != 0;
    default: return ((const uint8_t *)p)[k] != 0;
  }
}

static void logic_row(ic_cmp_op op, ic_dtype dx, ic_dtype dy, uint8_t *o, const char *x,
                      const char *y, int64_t n, int64_t sx, int64_t sy) {
  for (int64_t k = 0; k < n; k++) {
    bool a = truth(dx, x, k * sx), b = truth(dy, y, k * sy);
    o[k] = (uint8_t)(op == IC_LOGIC_AND ? (a && b) : op == IC_LOGIC_OR ? (a || b) : (a != b));
  }
}

ic_status ic_compare_run(ic_kctx *c, ic_cmp_op op) {
  const ic_elementwise_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_bcast b;
  ic_status st = ic_bcast_plan(c, 0, 1, a->axis, &b);
  if (st || b.numel == 0) return st;
  int n = b.n;
  int64_t inner = b.dims[n - 1], rows = b.numel / inner;
  int64_t sxi = b.sx[n - 1], syi = b.sy[n - 1];
  size_t ex = ic_dtype_size(x->dtype), ey = ic_dtype_size(y->dtype);
  uint8_t *o = out->data;
  const char *xp = x->data, *yp = y->data;
  int64_t idx[IC_MAX_RANK] = {0}, ox = 0, oy = 0;
  for (int64_t r = 0; r < rows; r++) {
    const char *xr = xp + (size_t)ox * ex, *yr = yp + (size_t)oy * ey;
    if (op >= IC_LOGIC_AND) {
      logic_row(op, x->dtype, y->dtype, o + r * inner, xr, yr, inner, sxi, syi);
    } else {
      cmp_row(op, x->dtype, o + r * inner, xr, yr, inner, sxi, syi);
    }
    for (int d = n - 2; d >= 0; d--) { /* odometer over the outer dims */
      ox += b.sx[d];
      oy += b.sy[d];
      if (++idx[d] < b.dims[d]) break;
      ox -= b.sx[d] * b.dims[d];
      oy -= b.sy[d] * b.dims[d];
      idx[d] = 0;
    }
  }
  return IC_OK;
}
