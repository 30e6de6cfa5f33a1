/* What Paddle's oneDNN int8 ops quantize, dequantize and requantize (written by
 * save_quant_model / the quant2 int8 flow) compute: one oneDNN reorder with a per-tensor
 * scale and zero point. Values are computed in float, saturated to the destination type and
 * rounded to nearest even (oneDNN's conversion); bfloat16 destinations round to nearest even
 * too (half.h). Checked against Paddle 3.3.1's oneDNN kernels (tests/data/paddle_oracle). */
#ifndef IC_KERNELS_CPU_ONEDNN_QUANT_H
#define IC_KERNELS_CPU_ONEDNN_QUANT_H

#include <math.h>
#include <stdint.h>

#include "kernels/cpu/half.h"
#include "kernels/kernel.h"

/* Float v stored as dtype (int8, uint8 or bf16), saturated and rounded as oneDNN does. */
static inline void ic_q_store(ic_dtype dt, void *dst, int64_t i, float v) {
  if (dt == IC_BF16) {
    ((uint16_t *)dst)[i] = ic_f32_to_bf16(v);
    return;
  }
  const float lo = dt == IC_INT8 ? -128.0f : 0.0f, hi = dt == IC_INT8 ? 127.0f : 255.0f;
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  if (v != v) v = 0.0f;
  v = nearbyintf(v);
  if (dt == IC_INT8) ((int8_t *)dst)[i] = (int8_t)v;
  else ((uint8_t *)dst)[i] = (uint8_t)v;
}

/* Element i of an int8, uint8 or bf16 tensor as float. */
static inline float ic_q_load(ic_dtype dt, const void *src, int64_t i) {
  if (dt == IC_INT8) return (float)((const int8_t *)src)[i];
  if (dt == IC_UINT8) return (float)((const uint8_t *)src)[i];
  return ic_bf16_to_f32(((const uint16_t *)src)[i]);
}

#endif
