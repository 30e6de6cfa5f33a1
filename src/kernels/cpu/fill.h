/* Shared by the ops that create a tensor from attributes (fill_constant,
 * fill_constant_batch_size_like, uniform_random, gaussian_random): the output shape from
 * Paddle's three sources, the dtype attribute, storing one value in any dtype, and the ops'
 * attribute structs (their CUDA kernels include this header too). */
#ifndef IC_KERNELS_CPU_FILL_H
#define IC_KERNELS_CPU_FILL_H

#include <string.h>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/half.h"
#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The output shape, by Paddle's precedence: input ShapeTensor (slot s_tensor: a 1-D int32
 * or int64 tensor of the dims) if present, else input ShapeTensorList (slot s_list: int32
 * or int64 tensors of one element each) if non-empty, else the attribute (n_attr values).
 * Every dim must be >= 0 and the rank at most IC_MAX_RANK; failures name the source. */
ic_status ic_fill_shape(ic_kctx *c, size_t s_tensor, size_t s_list, const int64_t *attr,
                        size_t n_attr, int *ndim, int64_t *dims);
/* infer of an op whose only output (Out, slot 0) is a new tensor of dtype dt and that shape:
 * gaussian_random, randint. */
ic_status ic_fill_infer_shaped(ic_kctx *c, size_t s_tensor, size_t s_list, const int64_t *attr,
                               size_t n_attr, ic_dtype dt);

/* Read a Paddle VarType data type attribute into *dt; fails the reader for one icore does
 * not have (complex, strings) or that is not in `allowed` (IC_DT bits). */
void ic_fill_parse_dtype(ic_attr_reader *r, const char *name, int64_t dflt, uint64_t allowed,
                         ic_dtype *dt);

/* A scalar before conversion to the output dtype: integers are kept exact (int64 values
 * beyond 2^53 survive), everything else is a double. */
typedef struct ic_fill_scalar {
  bool is_int;
  int64_t i; /* when is_int */
  double f;  /* otherwise; also (double)i when is_int */
} ic_fill_scalar;

/* Element 0 of a numeric tensor as a scalar (integers exact). */
ic_fill_scalar ic_fill_scalar_of(const ic_tensor *t);

/* Store v converted to dt (Paddle's static_cast: floats to integers truncate, see
 * convert.h; to bool is v != 0; to float16/bfloat16 rounds to nearest even) into n
 * elements at data. */
void ic_fill_store(void *data, ic_dtype dt, int64_t n, ic_fill_scalar v);

/* Store the element whose bytes are the low `es` bytes of bits (es 1, 2, 4 or 8; as
 * ic_fill_bits gives them) into n elements at data. */
void ic_fill_store_bits(void *data, size_t es, int64_t n, uint64_t bits);

/* ---- shared with the CUDA kernels, which read a value tensor on the device ---- */

/* The value at data (element 0) of dtype dt as a scalar: ic_fill_scalar_of on a pointer. */
static inline IC_HD ic_fill_scalar ic_fill_scalar_at(const void *data, ic_dtype dt) {
  ic_fill_scalar s = {false, 0, 0.0};
  switch (dt) {
    case IC_FP32: s.f = ((const float *)data)[0]; return s;
    case IC_FP64: s.f = ((const double *)data)[0]; return s;
    case IC_FP16: s.f = ic_f16_to_f32(((const uint16_t *)data)[0]); return s;
    case IC_BF16: s.f = ic_bf16_to_f32(((const uint16_t *)data)[0]); return s;
    case IC_INT64: s.i = ((const int64_t *)data)[0]; break;
    case IC_INT32: s.i = ((const int32_t *)data)[0]; break;
    case IC_INT16: s.i = ((const int16_t *)data)[0]; break;
    case IC_INT8: s.i = ((const int8_t *)data)[0]; break;
    case IC_UINT8: s.i = ((const uint8_t *)data)[0]; break;
    case IC_BOOL: s.i = ((const uint8_t *)data)[0] != 0; break;
    case IC_COMPLEX64: s.f = ((const float *)data)[0]; return s;   /* the real part */
    case IC_COMPLEX128: s.f = ((const double *)data)[0]; return s;
  }
  s.is_int = true;
  s.f = (double)s.i;
  return s;
}

/* The bytes of one element of dt holding v (what ic_fill_store writes), in the low
 * ic_dtype_size(dt) bytes. */
static inline IC_HD uint64_t ic_fill_bits(ic_dtype dt, ic_fill_scalar v) {
  /* Integers from integers wrap; from floats they truncate like Paddle's static_cast. */
  int64_t i64 = v.is_int ? v.i : ic_f64_to_i64(v.f);
  int64_t i32 = v.is_int ? v.i : ic_f64_to_i32(v.f);
  float f32 = v.is_int ? (float)v.i : (float)v.f;
  double f64 = v.is_int ? (double)v.i : v.f;
  uint64_t u64;
  switch (dt) {
    case IC_FP32: return ic_f32_bits(f32);
    case IC_FP64: memcpy(&u64, &f64, sizeof u64); return u64;
    case IC_FP16: return ic_f32_to_f16(f32);
    case IC_BF16: return ic_f32_to_bf16(f32);
    case IC_BOOL: return (uint8_t)(v.is_int ? v.i != 0 : v.f != 0);
    case IC_INT64: return (uint64_t)i64;
    case IC_INT32: return (uint32_t)ic_wrap_i32(i32);
    case IC_INT16: return (uint16_t)ic_wrap_i16(i32);
    case IC_INT8: return (uint8_t)ic_wrap_i8(i32);
    case IC_UINT8: return ic_wrap_u8(i32);
    case IC_COMPLEX64: case IC_COMPLEX128: break; /* no 8-byte pattern: IC_DT_ANY refuses */
  }
  return 0;
}

/* The bytes of one element of dt holding v converted by a plain C cast (v in dt's range),
 * as fill_constant_batch_size_like fills. */
static inline IC_HD uint64_t ic_fill_cast_bits(ic_dtype dt, double v) {
  uint64_t u64;
  switch (dt) {
    case IC_FP32: return ic_f32_bits((float)v);
    case IC_FP64: memcpy(&u64, &v, sizeof u64); return u64;
    case IC_INT32: return (uint32_t)(int32_t)v;
    case IC_INT64: return (uint64_t)(int64_t)v;
    case IC_INT16: return (uint16_t)(int16_t)v;
    case IC_INT8: return (uint8_t)(int8_t)v;
    case IC_UINT8: return (uint8_t)v;
    case IC_BOOL: return v != 0;
    case IC_FP16: return ic_f32_to_f16((float)v);
    case IC_BF16: return ic_f32_to_bf16((float)v);
    case IC_COMPLEX64: case IC_COMPLEX128: break; /* refused by IC_DT_ANY */
  }
  return 0;
}

/* ---- the tensor-creating ops' attributes (shared with the CUDA kernels) ---- */

typedef struct fill_constant_attrs {
  const int64_t *shape; /* borrowed from the program */
  size_t n_shape;
  ic_dtype dtype;
  ic_fill_scalar value; /* from str_value or value */
} fill_constant_attrs;

typedef struct fcbsl_attrs {
  int n_shape;
  int64_t shape[IC_MAX_RANK];
  ic_dtype dtype;
  double value;
  int64_t input_dim_idx;
  int64_t output_dim_idx;
} fcbsl_attrs;

typedef struct uniform_random_attrs {
  const int64_t *shape; /* borrowed from the program */
  size_t n_shape;
  ic_dtype dtype;
  float min, max;
  int64_t seed;
  int64_t diag_num, diag_step;
  float diag_val;
} uniform_random_attrs;

typedef struct gaussian_random_attrs {
  const int64_t *shape; /* borrowed from the program */
  size_t n_shape;
  ic_dtype dtype;
  float mean, std;
  int64_t seed;
} gaussian_random_attrs;

#ifdef __cplusplus
}
#endif

#endif
