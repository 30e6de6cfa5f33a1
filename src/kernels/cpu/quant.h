/* Shared by the quantization ops of exported quantized programs (fake_quantize_*,
 * fake_*dequantize*, quantize_linear, dequantize_linear), inference semantics. The scalar
 * formulas follow paddle/phi/kernels/funcs/fake_quantize_functor.h in the input's type:
 *
 *   inverse(s)   1 / s, or 1 / (s + 1e-6) when s <= 1e-30;
 *   quantize     round_type 0: q = rint(bin_cnt * inv_s * x) clipped to [-bin_cnt - 1,
 *                bin_cnt]; round_type 1: q = round(bin_cnt * inv_s * clip(x, -s, s)), halves
 *                away from zero;
 *   dequantize   round_type 0: q * s / bin_cnt; round_type 1: the same product written
 *                round(...) * s / bin_cnt.
 */
#ifndef IC_KERNELS_CPU_QUANT_H
#define IC_KERNELS_CPU_QUANT_H

#include <math.h>

#include "kernels/kernel.h"

#define IC_QUANT_FNS(T, SUF, RINT, ROUND)                                                  \
  static inline T ic_quant_inv_##SUF(T s) {                                                \
    return s <= (T)1e-30 ? (T)1 / (s + (T)1e-6) : (T)1 / s;                                \
  }                                                                                        \
  static inline T ic_quant_##SUF(T x, T s, T bin, int round_type) {                        \
    T inv = ic_quant_inv_##SUF(s);                                                         \
    if (round_type == 0) {                                                                 \
      T q = RINT(bin * inv * x);                                                           \
      q = q > bin ? bin : q;                                                               \
      return q < -bin - 1 ? -bin - 1 : q;                                                  \
    }                                                                                      \
    T c = x < -s ? -s : x > s ? s : x;                                                     \
    return ROUND(bin * inv * c);                                                           \
  }                                                                                        \
  static inline T ic_quant_dequant_##SUF(T x, T s, T bin, int round_type) {                \
    return ic_quant_##SUF(x, s, bin, round_type) * s / bin;                                \
  }

IC_QUANT_FNS(float, f32, rintf, roundf)
IC_QUANT_FNS(double, f64, rint, round)

/* Parse bit_length (1..16) into bin_cnt = 2^(bit_length - 1) - 1 and round_type (0 or 1). */
ic_status ic_quant_parse_bits(ic_attr_reader *r, const char *name, int64_t dflt, int *bin_cnt);
ic_status ic_quant_parse_round(ic_attr_reader *r, int64_t dflt, int *round_type);

/* The channel count and the element -> channel map along quant_axis (0 or 1; -1: one
 * channel): element i is in channel (i / inner) % channels. Fails naming input s when the
 * axis does not fit. */
ic_status ic_quant_channels(ic_kctx *c, size_t s, int quant_axis, int64_t *channels,
                            int64_t *inner);

/* Copy an optional pass-through output (OutScale = InScale at inference): output os gets
 * input is's meta in infer (ic_quant_pass_meta) and bytes in the kernel (ic_quant_pass). An
 * absent input (OutState without InState) gives an empty [0] of X's dtype. */
void ic_quant_pass_meta(ic_kctx *c, size_t os, size_t is);
void ic_quant_pass(ic_kctx *c, size_t os, size_t is);

#endif
