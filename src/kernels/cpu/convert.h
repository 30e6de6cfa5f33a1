/* Float-to-integer conversions with defined results where C leaves them undefined (NaN and
 * out of range). They give what Paddle's static_cast gives on x86-64, whose cvtt*2si
 * instructions return the "integer indefinite" value INT_MIN for those inputs; narrower
 * integers convert through int32 and keep the low bits, as the compiled casts do. Integer
 * narrowing wraps (two's complement), as on every platform Paddle runs on. */
#ifndef IC_KERNELS_CPU_CONVERT_H
#define IC_KERNELS_CPU_CONVERT_H

#include <stdint.h>

#if defined(__CUDACC__)
#define IC_CONVERT_FN static inline __host__ __device__
#else
#define IC_CONVERT_FN static inline
#endif

IC_CONVERT_FN int32_t ic_f64_to_i32(double v) {
  return (v > -2147483649.0 && v < 2147483648.0) ? (int32_t)v : INT32_MIN;
}

IC_CONVERT_FN int64_t ic_f64_to_i64(double v) {
  return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (int64_t)v : INT64_MIN;
}

/* Low bits of an integer as a narrower signed type (implementation-defined in C, two's
 * complement wrap with every compiler icore supports). */
IC_CONVERT_FN int32_t ic_wrap_i32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }
IC_CONVERT_FN int16_t ic_wrap_i16(int64_t v) { return (int16_t)(uint16_t)(uint64_t)v; }
IC_CONVERT_FN int8_t ic_wrap_i8(int64_t v) { return (int8_t)(uint8_t)(uint64_t)v; }
IC_CONVERT_FN uint8_t ic_wrap_u8(int64_t v) { return (uint8_t)(uint64_t)v; }

#endif
