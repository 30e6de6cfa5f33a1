/* arg_max / arg_min, as paddle/phi/infermeta/unary.cc ArgMinMaxInferMeta and
 * paddle/phi/kernels/cpu/arg_min_max_kernel.cc define them: the index of the first largest
 * (smallest) element along `axis` (negative counts from the end), as int64 (dtype 3, or -1)
 * or int32 (dtype 2).
 *   flatten false: Out is X's dims without `axis`, or with it set to 1 when keepdims;
 *   flatten true:  X is searched as one flat vector; Out is 0-D, or X's rank of ones when
 *                  keepdims (axis is then ignored).
 * A 0-D X gives a 0-D 0. X may be float32, float64, int32, int64, int16, int8 or uint8.
 * NaN compares false both ways, so it is never chosen over the first element (unless it is
 * the first). */
#include "kernels/cpu/arg_minmax.h"

const ic_slotdef ic_argmm_inputs[1] = {{"X", 0}};
const ic_slotdef ic_argmm_outputs[1] = {{"Out", 0}};

ic_status ic_argmm_parse(ic_attr_reader *r, void *attrs) {
  ic_argmm_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  a->keepdims = ic_ar_bool(r, "keepdims", false);
  a->flatten = ic_ar_bool(r, "flatten", false);
  int64_t dt = ic_ar_int(r, "dtype", -1);
  if (r->st) return r->st;
  if (dt == -1 || dt == IC_INT64) a->dtype = IC_INT64;
  else if (dt == IC_INT32) a->dtype = IC_INT32;
  else return ic_ar_fail(r, "dtype", "is %lld, expected 2 (int32), 3 (int64) or -1", (long long)dt);
  return IC_OK;
}

#define ARG_DTYPES \
  (IC_DT_NUM | IC_DT(IC_INT16) | IC_DT(IC_INT8) | IC_DT(IC_UINT8))

/* The reduced axis (or -1 for flatten / 0-D) after checks. */
static ic_status axis_of(ic_kctx *c, int *ax) {
  const ic_argmm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, ARG_DTYPES);
  if (st) return st;
  *ax = -1;
  if (a->flatten || x->ndim == 0) return IC_OK;
  *ax = ic_kaxis(c, a->axis, x->ndim, "axis");
  if (*ax < 0) return c->err->code;
  if (x->dims[*ax] == 0) {
    return ic_kfail_in(c, 0, 0, "has no elements along axis %d, expected at least one", *ax);
  }
  return IC_OK;
}

ic_status ic_argmm_infer(ic_kctx *c) {
  const ic_argmm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  int ax;
  ic_status st = axis_of(c, &ax);
  if (st) return st;
  int64_t d[IC_MAX_RANK];
  int nd = 0;
  if (ax < 0) {
    if (ic_numel(x->ndim, x->dims) == 0) {
      return ic_kfail_in(c, 0, 0, "has no elements, expected at least one");
    }
    if (a->keepdims) {
      for (int i = 0; i < x->ndim; i++) d[nd++] = 1;
    }
  } else {
    for (int i = 0; i < x->ndim; i++) {
      if (i != ax) d[nd++] = x->dims[i];
      else if (a->keepdims) d[nd++] = 1;
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, nd, d);
  return IC_OK;
}

#define SCAN(T)                                                                  \
  do {                                                                           \
    const T *p = (const T *)x->data;                                             \
    for (int64_t o = 0; o < outer; o++)                                          \
      for (int64_t i = 0; i < inner; i++) {                                      \
        const T *q = p + o * len * inner + i;                                    \
        T best = q[0];                                                           \
        int64_t bi = 0;                                                          \
        if (max) {                                                               \
          for (int64_t k = 1; k < len; k++)                                      \
            if (q[k * inner] > best) best = q[k * inner], bi = k;                \
        } else {                                                                 \
          for (int64_t k = 1; k < len; k++)                                      \
            if (q[k * inner] < best) best = q[k * inner], bi = k;                \
        }                                                                        \
        if (i64) ((int64_t *)out->data)[o * inner + i] = bi;                     \
        else ((int32_t *)out->data)[o * inner + i] = (int32_t)bi;                \
      }                                                                          \
  } while (0)

ic_status ic_argmm_run(ic_kctx *c, bool max) {
  const ic_argmm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int ax;
  ic_status st = axis_of(c, &ax);
  if (st) return st;
  int64_t outer = 1, len = 1, inner = 1;
  if (ax < 0) {
    len = ic_numel(x->ndim, x->dims);
  } else {
    for (int i = 0; i < ax; i++) outer *= x->dims[i];
    len = x->dims[ax];
    for (int i = ax + 1; i < x->ndim; i++) inner *= x->dims[i];
  }
  if (a->dtype == IC_INT32 && len > INT32_MAX) {
    return ic_kfail_in(c, 0, 0, "has %lld elements to search, more than dtype int32 can index",
                       (long long)len);
  }
  if (outer * inner == 0) return IC_OK;
  const bool i64 = a->dtype == IC_INT64;
  switch (x->dtype) {
    case IC_FP32: SCAN(float); break;
    case IC_FP64: SCAN(double); break;
    case IC_INT32: SCAN(int32_t); break;
    case IC_INT64: SCAN(int64_t); break;
    case IC_INT16: SCAN(int16_t); break;
    case IC_INT8: SCAN(int8_t); break;
    default: SCAN(uint8_t); break;
  }
  return IC_OK;
}
