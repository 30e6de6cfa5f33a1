/* IEEE half (fp16) and bfloat16 conversions to and from float, in plain C on the bits, so
 * every kernel (and later the CUDA ones, through IC_HALF_FN) converts the same way.
 *
 * float -> fp16 and float -> bf16 round to nearest even, as Paddle's CPU float16 (F16C
 * _cvtss_sh) and bfloat16 (cpu_float_to_bfloat16) do: fp16 overflows to infinity from
 * 65520 up, underflows through subnormals, and keeps a NaN's sign and top payload bits with
 * the quiet bit set; bf16 turns every NaN into 0x7FFF, as Paddle does. Conversions from
 * double go through float first (Paddle's float16(double) does), so they round twice. */
#ifndef IC_KERNELS_CPU_HALF_H
#define IC_KERNELS_CPU_HALF_H

#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#define IC_HALF_FN static inline __host__ __device__
#else
#define IC_HALF_FN static inline
#endif

IC_HALF_FN uint32_t ic_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

IC_HALF_FN float ic_f32_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

IC_HALF_FN uint16_t ic_f32_to_f16(float f) {
  uint32_t x = ic_f32_bits(f);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) { /* Inf stays Inf; NaN keeps its top payload bits, made quiet */
    return (uint16_t)(sign | (x > 0x7f800000u ? 0x7e00u | ((x >> 13) & 0x3ffu) : 0x7c00u));
  }
  if (x >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520 rounds to Inf */
  if (x < 0x38800000u) {                                    /* below 2^-14: subnormal or 0 */
    if (x < 0x33000000u) return sign;                       /* <= 2^-25 rounds to 0 */
    uint32_t e = x >> 23, m = (x & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126u - e; /* 14..24: the value is m * 2^-24 >> shift */
    uint32_t r = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (r & 1u))) r++;
    return (uint16_t)(sign | r);
  }
  /* Normal: rebias the exponent (127 -> 15) and round the 13 dropped bits to even; a carry
   * into the exponent is the right answer. */
  x += 0xc8000fffu + ((x >> 13) & 1u);
  return (uint16_t)(sign | (x >> 13));
}

IC_HALF_FN float ic_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1f) return ic_f32_from_bits(sign | 0x7f800000u | (m << 13));
  if (e != 0) return ic_f32_from_bits(sign | ((e + 112u) << 23) | (m << 13));
  if (m == 0) return ic_f32_from_bits(sign);
  e = 113; /* subnormal: normalize m * 2^-24 */
  while (!(m & 0x400u)) {
    m <<= 1;
    e--;
  }
  return ic_f32_from_bits(sign | (e << 23) | ((m & 0x3ffu) << 13));
}

IC_HALF_FN uint16_t ic_f32_to_bf16(float f) {
  uint32_t x = ic_f32_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fffu;
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

IC_HALF_FN float ic_bf16_to_f32(uint16_t h) { return ic_f32_from_bits((uint32_t)h << 16); }

#endif
