/* Shared by the quantization ops (fake_quantize_*, fake_*dequantize*, quantize_linear,
 * dequantize_linear) of exported quantized programs and of QAT training programs. The scalar
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
#include <stdbool.h>

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

/* The per-tensor-scale ops (X slot 0, the scale slot 1, Out slot 0): infer checks X is float
 * and the scale one element of X's dtype and gives Out X's meta; run sets Out = X quantized
 * with the scale's value (the formulas above; dequantized too when `dequant`). */
ic_status ic_quant_scalar_infer(ic_kctx *c);
void ic_quant_scalar_run(ic_kctx *c, int bin_cnt, int round_type, bool dequant);

/* o = x quantized with the one scale s[0] (dequantized too when `dequant`); x and s float32
 * or float64, s of x's dtype. */
void ic_quant_apply(const ic_tensor *x, const ic_tensor *s, ic_tensor *o, int bin_cnt,
                    int round_type, bool dequant);

/* max |x| over the whole tensor as Paddle's FindAbsMaxFunctor scans it (a NaN first element
 * gives NaN, later NaNs are skipped; 0 for an empty tensor), exact in x's type. */
double ic_quant_abs_max(const ic_tensor *x);

/* Checks that input s (when present) or output s (`out`) holds or will hold exactly one
 * element of X's dtype; `what` says what it is for the message. */
ic_status ic_quant_check_one(ic_kctx *c, size_t s, bool out, const char *what);

/* The moving-average abs-max ops (fake_quantize_moving_average_abs_max and
 * fake_quantize_dequantize_moving_average_abs_max): inputs X, InScale, InAccum, InState;
 * outputs Out, OutScale, OutState, OutAccum. At inference (is_test) Out uses InScale and
 * the other outputs pass their inputs through. In training (Paddle's
 * FindMovingAverageAbsMaxFunctor), in X's type with the float moving_rate r:
 *   state = r * InState + 1, accum = r * InAccum + max|X|, scale = accum / state,
 * written to OutState, OutAccum and OutScale, and Out uses scale. */
typedef struct ic_quant_ma_attrs {
  int bin_cnt, round_type;
  bool is_test;
  float moving_rate;
} ic_quant_ma_attrs;
extern const ic_slotdef ic_quant_ma_inputs[4];
extern const ic_slotdef ic_quant_ma_outputs[4];
ic_status ic_quant_ma_parse(ic_attr_reader *r, void *attrs);
ic_status ic_quant_ma_infer(ic_kctx *c);
ic_status ic_quant_ma_run(ic_kctx *c, bool dequant);

/* The moving-average update alone: from max |x|, the float rate and the one-element accum and
 * state (x's dtype), writes out_state, out_accum and out_scale (one element each). */
void ic_quant_ma_update(const ic_tensor *x, float rate, const ic_tensor *accum,
                        const ic_tensor *state, ic_tensor *out_scale, ic_tensor *out_state,
                        ic_tensor *out_accum);
/* scales[k] = max |x| over channel k of ch along axis 0 or 1 (element i in channel
 * (i / inner) % ch), in x's type, NaN handled as Paddle's FindChannelAbsMaxFunctor. */
void ic_quant_channel_abs_max(const ic_tensor *x, int axis, int64_t ch, int64_t inner,
                              void *scales);

/* The abs-max ops without state (fake_quantize_abs_max, fake_quantize_dequantize_abs_max):
 * input X; outputs Out and OutScale = [max|X|]; Out is X quantized with that scale. */
typedef struct ic_quant_am_attrs {
  int bin_cnt, round_type;
} ic_quant_am_attrs;
extern const ic_slotdef ic_quant_am_inputs[1];
extern const ic_slotdef ic_quant_am_outputs[2];
ic_status ic_quant_am_parse(ic_attr_reader *r, void *attrs);
ic_status ic_quant_am_infer(ic_kctx *c);
ic_status ic_quant_am_run(ic_kctx *c, bool dequant);

/* Copy an optional pass-through output (OutScale = InScale at inference): output os gets
 * input is's meta in infer (ic_quant_pass_meta) and bytes in the kernel (ic_quant_pass). An
 * absent input (OutState without InState) gives an empty [0] of X's dtype. */
void ic_quant_pass_meta(ic_kctx *c, size_t os, size_t is);
void ic_quant_pass(ic_kctx *c, size_t os, size_t is);

/* The channel-wise abs-max ops (fake_channel_wise_quantize_abs_max,
 * fake_channel_wise_quantize_dequantize_abs_max): per channel along quant_axis (0 or 1) the
 * scale is max |X| over the channel (Paddle's FindChannelAbsMaxFunctor), written to
 * OutScale, and Out is X quantized with its channel's scale (dequantized too when
 * `dequant`). Input 0 is X; with `read_scale` the scales are instead input 1 (the previous
 * OutScale: fake_channel_wise_quantize_abs_max at inference). */
typedef struct ic_quant_cw_attrs {
  int bin_cnt, round_type, quant_axis;
  bool is_test;
} ic_quant_cw_attrs;
ic_status ic_quant_cw_parse(ic_attr_reader *r, void *attrs);
ic_status ic_quant_cw_infer(ic_kctx *c, bool read_scale);
ic_status ic_quant_cw_run(ic_kctx *c, bool dequant, bool read_scale);

#endif
