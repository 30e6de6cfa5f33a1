/* The engine of cummax and cummin (cum_maxmin in Paddle: paddle/phi/kernels/cpu/
 * cum_maxmin_kernel.cc, CumWithIndicesInferMeta): along `axis` (default -1; a 0-D X counts as
 * one element), Out holds the running maximum (minimum) of X and Indices the index along axis
 * where it was found: an element that is >= (<=) the current one (so the later of equal
 * values) or NaN takes over, and after a NaN only a NaN does (a NaN propagates, its index the
 * latest NaN's). X float32, float64, int32 or int64; Indices int64 (dtype 3, default) or
 * int32 (dtype 2). */
#include "kernels/cpu/cumext.h"

#include <math.h>

const ic_slotdef ic_cumext_inputs[1] = {{"x", 0}};
const ic_slotdef ic_cumext_outputs[2] = {{"out", 0}, {"indices", 0}};

ic_status ic_cumext_parse(ic_attr_reader *r, void *attrs) {
  ic_cumext_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  const int64_t dt = ic_ar_int(r, "dtype", 3);
  if (r->st) return r->st;
  if (dt == 3) a->idx = IC_INT64;
  else if (dt == 2) a->idx = IC_INT32;
  else return ic_ar_fail(r, "dtype", "is %lld, expected 3 (int64) or 2 (int32)", (long long)dt);
  return IC_OK;
}

ic_status ic_cumext_infer(ic_kctx *c) {
  const ic_cumext_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  const int r = x->ndim ? x->ndim : 1;
  if (a->axis < -r || a->axis >= r) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute axis is %lld, expected in [%d, %d]",
                    (long long)a->axis, -r, r - 1);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  ic_tensor_set_meta(ic_out(c, 1, 0), a->idx, x->ndim, x->dims);
  return IC_OK;
}

#define ISNAN_F(v) isnan(v)
#define ISNAN_I(v) 0
#define CUM(T, ISNAN, CMP)                                                                      \
  do {                                                                                     \
    const T *xp = x->data;                                                                 \
    T *op = ic_out(c, 0, 0)->data;                                                         \
    for (int64_t o = 0; o < outer; o++) {                                                  \
      for (int64_t in = 0; in < inner; in++) {                                             \
        const int64_t base = o * len * inner + in;                                         \
        T best = xp[base];                                                                 \
        int64_t bi = 0;                                                                    \
        for (int64_t i = 0; i < len; i++) {                                                \
          const T v = xp[base + i * inner];                                                \
          if (ISNAN(v) || (!ISNAN(best) && v CMP best)) {                                  \
            best = v;                                                                      \
            bi = i;                                                                        \
          }                                                                                \
          op[base + i * inner] = best;                                                     \
          if (i32) ((int32_t *)ix->data)[base + i * inner] = (int32_t)bi;                  \
          else ((int64_t *)ix->data)[base + i * inner] = bi;                               \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  } while (0)

ic_status ic_cumext_run(ic_kctx *c, bool max) {
  const ic_cumext_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *ix = ic_out(c, 1, 0);
  const bool i32 = a->idx == IC_INT32;
  if (ic_tensor_numel_(x) == 0) return IC_OK;
  const int r = x->ndim ? x->ndim : 1;
  const int axis = (int)(a->axis < 0 ? a->axis + r : a->axis);
  int64_t outer = 1, inner = 1, len = x->ndim ? x->dims[axis] : 1;
  for (int d = 0; d < axis && d < x->ndim; d++) outer *= x->dims[d];
  for (int d = axis + 1; d < x->ndim; d++) inner *= x->dims[d];
  if (max) {
    switch (x->dtype) {
      case IC_FP32: CUM(float, ISNAN_F, >=); break;
      case IC_FP64: CUM(double, ISNAN_F, >=); break;
      case IC_INT32: CUM(int32_t, ISNAN_I, >=); break;
      default: CUM(int64_t, ISNAN_I, >=); break;
    }
  } else {
    switch (x->dtype) {
      case IC_FP32: CUM(float, ISNAN_F, <=); break;
      case IC_FP64: CUM(double, ISNAN_F, <=); break;
      case IC_INT32: CUM(int32_t, ISNAN_I, <=); break;
      default: CUM(int64_t, ISNAN_I, <=); break;
    }
  }
  return IC_OK;
}

