/* The classification behind isnan_v2, isinf_v2 and isfinite_v2 (and the fluid isnan and isinf,
 * below): Out (bool, X's dims) says
 * per element whether X is NaN / an infinity / finite. Float dtypes (float16 and bfloat16 by
 * their bits) are classified; every element of an integer or bool tensor is finite, never
 * NaN nor infinite (paddle/phi/kernels/isfinite_kernel.h, IsfiniteInferMeta). */
#ifndef IC_KERNELS_CPU_ISFINITE_H
#define IC_KERNELS_CPU_ISFINITE_H

#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IC_ISNAN, IC_ISINF, IC_ISFINITE };

static inline ic_status ic_isfinite_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_dtype_size(x->dtype) == 0) return ic_kfail_in(c, 0, 0, "expected a numeric dtype");
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_BOOL, x->ndim, x->dims);
  return IC_OK;
}

/* 0 finite, 1 infinite, 2 NaN, for a 16-bit float of `mant` mantissa bits. */
static inline int ic_isfinite_half(uint16_t h, int mant) {
  const unsigned exp_mask = (0x7fffu >> mant) << mant, m = h & ((1u << mant) - 1);
  if ((h & exp_mask) != exp_mask) return 0;
  return m ? 2 : 1;
}

/* Whether a class (0 finite, 1 infinite, 2 NaN) is what the op asks about. */
static inline uint8_t ic_isfinite_is(int cls, int what) {
  return what == IC_ISNAN ? cls == 2 : what == IC_ISINF ? cls == 1 : cls == 0;
}

static inline ic_status ic_isfinite_run(ic_kctx *c, int what) {
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  uint8_t *o = ic_out(c, 0, 0)->data;
  switch (x->dtype) {
    case IC_FP32: {
      const float *p = x->data;
      for (int64_t i = 0; i < n; i++) {
        o[i] = ic_isfinite_is(isnan(p[i]) ? 2 : isinf(p[i]) ? 1 : 0, what);
      }
      break;
    }
    case IC_FP64: {
      const double *p = x->data;
      for (int64_t i = 0; i < n; i++) {
        o[i] = ic_isfinite_is(isnan(p[i]) ? 2 : isinf(p[i]) ? 1 : 0, what);
      }
      break;
    }
    case IC_FP16:
    case IC_BF16: {
      const uint16_t *p = x->data;
      const int mant = x->dtype == IC_FP16 ? 10 : 7;
      for (int64_t i = 0; i < n; i++) o[i] = ic_isfinite_is(ic_isfinite_half(p[i], mant), what);
      break;
    }
    default: memset(o, ic_isfinite_is(0, what), (size_t)n); /* integers and bool: finite */
  }
  return IC_OK;
}

/* The fluid ops isnan and isinf (v1, which Paddle 2.6 still registers: its OverflowOp): Out is
 * one bool, [1], whether any element of X is NaN / infinite (false for an empty X). */
static inline ic_status ic_isfinite_any_infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_dtype_size(x->dtype) == 0) return ic_kfail_in(c, 0, 0, "expected a numeric dtype");
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_BOOL, 1, (int64_t[]){1});
  return IC_OK;
}

static inline ic_status ic_isfinite_any_run(ic_kctx *c, int what) {
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  uint8_t any = 0;
  switch (x->dtype) {
    case IC_FP32:
      for (int64_t i = 0; i < n && !any; i++) {
        const float v = ((const float *)x->data)[i];
        any = ic_isfinite_is(isnan(v) ? 2 : isinf(v) ? 1 : 0, what);
      }
      break;
    case IC_FP64:
      for (int64_t i = 0; i < n && !any; i++) {
        const double v = ((const double *)x->data)[i];
        any = ic_isfinite_is(isnan(v) ? 2 : isinf(v) ? 1 : 0, what);
      }
      break;
    case IC_FP16:
    case IC_BF16:
      for (int64_t i = 0; i < n && !any; i++) {
        any = ic_isfinite_is(
            ic_isfinite_half(((const uint16_t *)x->data)[i], x->dtype == IC_FP16 ? 10 : 7), what);
      }
      break;
    default: break; /* integers and bool: never NaN nor infinite */
  }
  *(uint8_t *)ic_out(c, 0, 0)->data = any;
  return IC_OK;
}

#endif
