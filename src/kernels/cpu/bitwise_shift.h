/* bitwise_left_shift and bitwise_right_shift: out = x << y or x >> y with Paddle's
 * broadcasting of x and y (ew_simple.h, trailing dims aligned), x and y of one dtype among
 * uint8, int8, int16, int32 and int64, as Paddle 3.3.1's shift functors compute them
 * (paddle/phi/kernels/funcs/bitwise_functors.h, measured over every shift count):
 *   left shift (either mode): (x << y) wrapped to the dtype; 0 when y < 0 or y >= the bit
 *     width (no C undefined behaviour: the shift is done on the unsigned type);
 *   right shift, is_arithmetic true (the default): x >> y with the sign copied in; when
 *     y < 0 or y >= the bit width, -1 for a negative x and 0 otherwise;
 *   right shift, is_arithmetic false (logical): the bits of x as unsigned, shifted; 0 when
 *     y < 0 or y >= the bit width.
 * For uint8 both modes are the logical shift. Legacy slots x, y, out; attribute
 * is_arithmetic (bool, default true). */
#ifndef IC_KERNELS_CPU_BITWISE_SHIFT_H
#define IC_KERNELS_CPU_BITWISE_SHIFT_H

#include "kernels/cpu/ew_simple.h"

typedef struct ic_shift_attrs {
  ic_elementwise_attrs ew; /* first: ic_ews_infer / ic_ews_run read it */
  bool arithmetic;
} ic_shift_attrs;

static inline ic_status ic_shift_parse(ic_attr_reader *r, void *attrs) {
  ic_shift_attrs *a = attrs;
  ic_elementwise_parse(r, &a->ew);
  a->arithmetic = ic_ar_bool(r, "is_arithmetic", true);
  return r->st;
}

static inline ic_status ic_shift_infer(ic_kctx *c) {
  return ic_ews_infer(c, IC_DT(IC_UINT8) | IC_DT(IC_INT8) | IC_DT(IC_INT16) | IC_DT_INT);
}

/* Whether a shift count is outside [0, bits); whether a value is negative (functions of
 * int64_t, so that the uint8 versions compare without -Wtype-limits warnings). */
static inline bool ic_shift_out(int64_t b, int bits) { return b < 0 || b >= bits; }
static inline bool ic_shift_neg(int64_t a) { return a < 0; }

/* The shifts per dtype: T the type, U its unsigned type, B its bits. */
#define IC_SHIFT_FNS(SUF, T, U, B)                                                         \
  static inline T ic_shl_##SUF(T a, T b) {                                                 \
    return ic_shift_out(b, B) ? (T)0 : (T)(U)((U)a << b);                                  \
  }                                                                                        \
  static inline T ic_shra_##SUF(T a, T b) {                                                \
    if (ic_shift_out(b, B)) return ic_shift_neg(a) ? (T)-1 : (T)0;                         \
    return ic_shift_neg(a) ? (T) ~(T)((U)~(U)a >> b) : (T)((U)a >> b);                     \
  }                                                                                        \
  static inline T ic_shrl_##SUF(T a, T b) {                                                \
    return ic_shift_out(b, B) ? (T)0 : (T)((U)a >> b);                                     \
  }

IC_SHIFT_FNS(u8, uint8_t, uint8_t, 8)
IC_SHIFT_FNS(i8, int8_t, uint8_t, 8)
IC_SHIFT_FNS(i16, int16_t, uint16_t, 16)
IC_SHIFT_FNS(i32, int32_t, uint32_t, 32)
IC_SHIFT_FNS(i64, int64_t, uint64_t, 64)

#define IC_SHIFT_SLOTS                                                                     \
  static const ic_slotdef inputs[] = {{"x", 0}, {"y", 0}};                                 \
  static const ic_slotdef outputs[] = {{"out", 0}};

#endif
