/* cast's attributes, and the conversion of one element between any two dtypes as the CPU
 * kernel (cast.c) does it, for kernels that convert element by element with the dtypes
 * known only at run time (CUDA). cast.c keeps its own loops, one per dtype pair, which the
 * GPU suite checks against these bit for bit. */
#ifndef IC_KERNELS_CPU_CAST_H
#define IC_KERNELS_CPU_CAST_H

#include <stdint.h>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/half.h"
#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cast_attrs {
  ic_dtype out_dtype;
} cast_attrs;

/* A decoded element: the C value cast.c's decoders give, by kind (integers, bool as 0/1,
 * widen to int64 exactly; float16 and bfloat16 decode to float). */
typedef struct ic_cast_val {
  int kind; /* 0: integer in i, 1: float in f, 2: double in d */
  int64_t i;
  float f;
  double d;
} ic_cast_val;

static inline IC_HD ic_cast_val ic_cast_load(const void *p, int64_t k, ic_dtype dt) {
  ic_cast_val v = {0, 0, 0.0f, 0.0};
  switch (dt) {
    case IC_BOOL: v.i = ((const uint8_t *)p)[k] != 0; break;
    case IC_UINT8: v.i = ((const uint8_t *)p)[k]; break;
    case IC_INT8: v.i = ((const int8_t *)p)[k]; break;
    case IC_INT16: v.i = ((const int16_t *)p)[k]; break;
    case IC_INT32: v.i = ((const int32_t *)p)[k]; break;
    case IC_INT64: v.i = ((const int64_t *)p)[k]; break;
    case IC_FP16: v.kind = 1; v.f = ic_f16_to_f32(((const uint16_t *)p)[k]); break;
    case IC_BF16: v.kind = 1; v.f = ic_bf16_to_f32(((const uint16_t *)p)[k]); break;
    case IC_FP32: v.kind = 1; v.f = ((const float *)p)[k]; break;
    case IC_FP64: v.kind = 2; v.d = ((const double *)p)[k]; break;
    case IC_COMPLEX64: v.kind = 1; v.f = ((const float *)p)[2 * k]; break; /* real part */
    case IC_COMPLEX128: v.kind = 2; v.d = ((const double *)p)[2 * k]; break;
  }
  return v;
}

/* The value as int32 the way cast.c's TO_I32 converts each C type. */
static inline IC_HD int32_t ic_cast_i32(ic_cast_val v) {
  return v.kind == 0 ? ic_wrap_i32(v.i) : v.kind == 1 ? ic_f64_to_i32(v.f) : ic_f64_to_i32(v.d);
}

static inline IC_HD float ic_cast_f32(ic_cast_val v) {
  return v.kind == 0 ? (float)v.i : v.kind == 1 ? v.f : (float)v.d;
}

static inline IC_HD void ic_cast_store(void *p, int64_t k, ic_dtype dt, ic_cast_val v) {
  switch (dt) {
    case IC_BOOL:
      ((uint8_t *)p)[k] = v.kind == 0 ? v.i != 0 : v.kind == 1 ? v.f != 0 : v.d != 0;
      break;
    case IC_UINT8: ((uint8_t *)p)[k] = ic_wrap_u8(ic_cast_i32(v)); break;
    case IC_INT8: ((int8_t *)p)[k] = ic_wrap_i8(ic_cast_i32(v)); break;
    case IC_INT16: ((int16_t *)p)[k] = ic_wrap_i16(ic_cast_i32(v)); break;
    case IC_INT32: ((int32_t *)p)[k] = ic_cast_i32(v); break;
    case IC_INT64:
      ((int64_t *)p)[k] =
          v.kind == 0 ? v.i : v.kind == 1 ? ic_f64_to_i64(v.f) : ic_f64_to_i64(v.d);
      break;
    case IC_FP16: ((uint16_t *)p)[k] = ic_f32_to_f16(ic_cast_f32(v)); break;
    case IC_BF16: ((uint16_t *)p)[k] = ic_f32_to_bf16(ic_cast_f32(v)); break;
    case IC_FP32: ((float *)p)[k] = ic_cast_f32(v); break;
    case IC_FP64:
      ((double *)p)[k] = v.kind == 0 ? (double)v.i : v.kind == 1 ? (double)v.f : v.d;
      break;
    case IC_COMPLEX64: /* real part, imaginary 0 */
      ((float *)p)[2 * k] = ic_cast_f32(v);
      ((float *)p)[2 * k + 1] = 0.0f;
      break;
    case IC_COMPLEX128:
      ((double *)p)[2 * k] = v.kind == 0 ? (double)v.i : v.kind == 1 ? (double)v.f : v.d;
      ((double *)p)[2 * k + 1] = 0.0;
      break;
  }
}

#ifdef __cplusplus
}
#endif

#endif
