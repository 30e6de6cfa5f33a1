/* Binary elementwise ops with Paddle's broadcasting (elementwise_add, _sub, _mul, _div, _max,
 * _min, _pow, _floordiv, _mod): the shared broadcast plan, slots, attribute parsing, shape
 * inference and the CPU engine. Each op file only names its operation:
 *
 *   static ic_status run(ic_kctx *c) { return ic_elementwise_run(c, IC_EW_ADD); }
 *   const ic_opdef ic_op_elementwise_add = IC_ELEMENTWISE_DEF("elementwise_add", run);
 */
#ifndef IC_KERNELS_CPU_ELEMENTWISE_H
#define IC_KERNELS_CPU_ELEMENTWISE_H

#include <math.h>

#include "kernels/cpu/convert.h"
#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ic_ew_op {
  IC_EW_ADD = 0,
  IC_EW_SUB,
  IC_EW_MUL,
  IC_EW_DIV,
  IC_EW_MAX,
  IC_EW_MIN,
  IC_EW_POW,
  IC_EW_FLOORDIV,
  IC_EW_MOD,
  IC_EW_N_OPS
} ic_ew_op;

/* A broadcast of two operands, simplified for the loops: dims where the output is 1 are
 * dropped and neighbouring dims that broadcast the same way are merged, so a same-shape op
 * is one dim, a bias add [N,C,H,W] + [C] (axis 1) is [N, C, H*W] with Y's strides
 * [0, 1, 0], and a scalar Y is one dim with Y's stride 0. */
typedef struct ic_bcast {
  int ndim;                     /* output rank */
  int64_t out[IC_MAX_RANK];     /* output dims */
  int64_t numel;                /* output elements */
  int n;                        /* simplified dims (>= 1) */
  int64_t dims[IC_MAX_RANK];    /* simplified dims, outermost first */
  int64_t sx[IC_MAX_RANK];      /* X's element stride per simplified dim (0: broadcast) */
  int64_t sy[IC_MAX_RANK];      /* Y's */
} ic_bcast;

/* Plan the broadcast of inputs (s_x, 0) and (s_y, 0) with Paddle's `axis` rule (see
 * elementwise.c); fails with IC_ERR_SHAPE naming both inputs and their shapes. */
ic_status ic_bcast_plan(ic_kctx *c, size_t s_x, size_t s_y, int64_t axis, ic_bcast *b);

/* The row loop over a plan: with idx (b->n - 1 zeros) and X's and Y's element offsets ox, oy
 * (0) at a row's start, step them to the next row's start (an odometer over the outer
 * simplified dims, the last dim being the row). */
static inline void ic_bcast_next_row(const ic_bcast *b, int64_t *idx, int64_t *ox,
                                     int64_t *oy) {
  for (int d = b->n - 2; d >= 0; d--) {
    *ox += b->sx[d];
    *oy += b->sy[d];
    if (++idx[d] < b->dims[d]) return;
    *ox -= b->sx[d] * b->dims[d];
    *oy -= b->sy[d] * b->dims[d];
    idx[d] = 0;
  }
}

/* A loop over n elements of one row: out, X and Y at the row's start (X or Y one value where
 * its stride along the row is 0). */
typedef void (*ic_ew_loop)(void *out, const void *x, const void *y, int64_t n);

/* Run the broadcast b over out (elements of es bytes) with loops[0] where X and Y both run
 * along the row, loops[1] where Y is one value per row, loops[2] where X is: on up to
 * `threads` threads (OpenMP) when there are enough elements, each taking a fixed contiguous
 * range of the output, so the results never depend on the thread count. */
void ic_bcast_run(const ic_bcast *b, const ic_ew_loop loops[3], void *out, const void *x,
                  const void *y, size_t es, int threads);

/* Fail (IC_ERR_SHAPE) for inputs X (slot 0) and Y (slot 1) of different dtypes, naming both. */
ic_status ic_bcast_dtype_mismatch(ic_kctx *c);

typedef struct ic_elementwise_attrs {
  int64_t axis;
  bool blocked_out; /* ic_blocked_out (layout pass): Out may keep a blocked operand's layout */
  bool blocked_pad; /* ic_blocked_pad (layout pass, ic_scale_residual): Out may also be
                       nChw16c with padded channels */
} ic_elementwise_attrs;

/* Whether v holds one value per channel of out [N, C, H, W] (and per image where it has N
 * rows), placed on axis 1 by the broadcast: [1 or N, C, 1, 1], or [C] with axis 1. Such a v
 * is laid out the same plain or blocked (H = W = 1). */
bool ic_ew_per_channel(const ic_tensor *v, const ic_tensor *out, int64_t axis);

extern const ic_slotdef ic_elementwise_inputs[2];
/* X and Y of the arithmetic ops (IC_ELEMENTWISE_DEF): either may arrive in a blocked layout
 * (ic_elementwise_run). */
extern const ic_slotdef ic_elementwise_blocked_inputs[2];
extern const ic_slotdef ic_elementwise_outputs[1];
ic_status ic_elementwise_parse(ic_attr_reader *r, void *attrs);
/* X and Y: the same dtype among float32, float64, int32, int64, int8, uint8 and int16; Out:
 * X's dtype and the broadcast shape. The _bool variant (elementwise_add and _mul) also takes
 * bool. */
ic_status ic_elementwise_infer(ic_kctx *c);
ic_status ic_elementwise_infer_bool(ic_kctx *c);
/* Out = op(X, Y) over the broadcast. */
ic_status ic_elementwise_run(ic_kctx *c, ic_ew_op op);

/* ---- the scalar operations, shared by the CPU loops and the CUDA kernels ----
 * ic_ew_<op>_<f32|f64|i32|i64>(a, b); semantics in elementwise.c's header comment. */

#define IC_EW_FLOAT_OPS(T, SUF, POW, FMOD, FLOOR, COPYSIGN)                               \
  static inline IC_HD T ic_ew_add_##SUF(T a, T b) { return a + b; }                        \
  static inline IC_HD T ic_ew_sub_##SUF(T a, T b) { return a - b; }                        \
  static inline IC_HD T ic_ew_mul_##SUF(T a, T b) { return a * b; }                        \
  static inline IC_HD T ic_ew_div_##SUF(T a, T b) { return a / b; }                        \
  static inline IC_HD T ic_ew_max_##SUF(T a, T b) {                                        \
    return a != a ? a : b != b ? b : a > b ? a : b;                                        \
  }                                                                                        \
  static inline IC_HD T ic_ew_min_##SUF(T a, T b) {                                        \
    return a != a ? a : b != b ? b : a < b ? a : b;                                        \
  }                                                                                        \
  static inline IC_HD T ic_ew_pow_##SUF(T a, T b) { return POW(a, b); }                   \
  static inline IC_HD T ic_ew_floordiv_##SUF(T a, T b) {                                   \
    if (b == 0) return a / b;                                                              \
    T m = FMOD(a, b), q = (a - m) / b;                                                     \
    if (m != 0 && ((b < 0) != (m < 0))) q -= 1;                                            \
    if (q == 0) return COPYSIGN((T)0, a / b);                                              \
    T f = FLOOR(q);                                                                        \
    return q - f > (T)0.5 ? f + 1 : f;                                                     \
  }                                                                                        \
  static inline IC_HD T ic_ew_mod_##SUF(T a, T b) {                                        \
    T r = FMOD(a, b);                                                                      \
    return (r != 0 && ((b < 0) != (r < 0))) ? r + b : r;                                   \
  }

/* floordiv and mod on floats are Python's: mod takes the divisor's sign (fmod, plus b when
 * the signs differ) and floordiv is (a - mod) / b rounded to the nearest whole number, a
 * signed 0 when that is 0; a zero divisor gives a / b (inf or NaN) and NaN. */
IC_EW_FLOAT_OPS(float, f32, powf, fmodf, floorf, copysignf)
IC_EW_FLOAT_OPS(double, f64, pow, fmod, floor, copysign)

/* a^b for integers as pow((double)a, (double)b) gives it: when the result's magnitude is at
 * most 2^53 it is exact, and it is computed here by squaring (exact in double up to there),
 * so that the CUDA kernels, whose pow() may be an ulp off, agree with the host's correctly
 * rounding one; larger results take pow() itself. b < 0 gives 0 for a = 0 and for |a| > 1
 * (the fraction truncates), +-1 for a = +-1. */
static inline IC_HD double ic_ew_ipow(int64_t a, int64_t b) {
  if (b < 0) return a == 1 ? 1.0 : a == -1 ? ((b & 1) ? -1.0 : 1.0) : 0.0;
  double r = 1.0, base = (double)a;
  for (int64_t e = b; e > 0; e >>= 1) {
    if (e & 1) r *= base;
    if (e > 1) base *= base;
  }
  return fabs(r) <= 9007199254740992.0 ? r : pow((double)a, (double)b);
}

/* Integer ops: unsigned arithmetic for the wrap, a zero divisor gives 0 (the CPU kernel
 * fails first; a CUDA kernel cannot, and leaves the 0). floordiv rounds toward -inf and mod
 * takes the divisor's sign (Python's // and %); INT_MIN // -1 wraps to INT_MIN. */
#define IC_EW_INT_OPS(T, U, SUF, FROM_F64, MIN)                                            \
  static inline IC_HD T ic_ew_add_##SUF(T a, T b) { return (T)((U)a + (U)b); }             \
  static inline IC_HD T ic_ew_sub_##SUF(T a, T b) { return (T)((U)a - (U)b); }             \
  static inline IC_HD T ic_ew_mul_##SUF(T a, T b) { return (T)((U)a * (U)b); }             \
  static inline IC_HD T ic_ew_div_##SUF(T a, T b) {                                        \
    return b == 0 ? 0 : (b == -1 && a == MIN) ? a : a / b;                                 \
  }                                                                                        \
  static inline IC_HD T ic_ew_max_##SUF(T a, T b) { return a > b ? a : b; }                \
  static inline IC_HD T ic_ew_min_##SUF(T a, T b) { return a < b ? a : b; }                \
  static inline IC_HD T ic_ew_pow_##SUF(T a, T b) {                                        \
    return (a == 0 && b < 0) ? 0 : (T)FROM_F64(ic_ew_ipow(a, b));                          \
  }                                                                                        \
  static inline IC_HD T ic_ew_floordiv_##SUF(T a, T b) {                                   \
    if (b == 0) return 0;                                                                  \
    if (b == -1) return (T)(0u - (U)a);                                                    \
    T q = a / b, r = a % b;                                                                \
    return (r != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;                                   \
  }                                                                                        \
  static inline IC_HD T ic_ew_mod_##SUF(T a, T b) {                                        \
    if (b == 0 || b == -1) return 0;                                                       \
    T r = a % b;                                                                           \
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;                                   \
  }

IC_EW_INT_OPS(int32_t, uint32_t, i32, ic_f64_to_i32, INT32_MIN)
IC_EW_INT_OPS(int64_t, uint64_t, i64, ic_f64_to_i64, INT64_MIN)

/* int8 and int16 (Paddle registers add, sub, div for them on the CPU; icore runs every op):
 * the same rules in their width; pow converts through int32. */
static inline IC_HD int8_t ic_ew_f64_to_i8(double v) { return (int8_t)ic_f64_to_i32(v); }
static inline IC_HD int16_t ic_ew_f64_to_i16(double v) { return (int16_t)ic_f64_to_i32(v); }
IC_EW_INT_OPS(int8_t, uint8_t, i8, ic_ew_f64_to_i8, INT8_MIN)
IC_EW_INT_OPS(int16_t, uint16_t, i16, ic_ew_f64_to_i16, INT16_MIN)

/* uint8 (add and div in Paddle): add, sub and mul wrap, division truncates (0 for a zero
 * divisor, which the CPU kernel refuses first), floordiv is division and mod the remainder. */
static inline IC_HD uint8_t ic_ew_add_u8(uint8_t a, uint8_t b) { return (uint8_t)(a + b); }
static inline IC_HD uint8_t ic_ew_sub_u8(uint8_t a, uint8_t b) { return (uint8_t)(a - b); }
static inline IC_HD uint8_t ic_ew_mul_u8(uint8_t a, uint8_t b) { return (uint8_t)(a * b); }
static inline IC_HD uint8_t ic_ew_div_u8(uint8_t a, uint8_t b) {
  return b == 0 ? 0 : (uint8_t)(a / b);
}
static inline IC_HD uint8_t ic_ew_max_u8(uint8_t a, uint8_t b) { return a > b ? a : b; }
static inline IC_HD uint8_t ic_ew_min_u8(uint8_t a, uint8_t b) { return a < b ? a : b; }
static inline IC_HD uint8_t ic_ew_pow_u8(uint8_t a, uint8_t b) {
  return (uint8_t)ic_f64_to_i32(ic_ew_ipow(a, b));
}
static inline IC_HD uint8_t ic_ew_floordiv_u8(uint8_t a, uint8_t b) { return ic_ew_div_u8(a, b); }
static inline IC_HD uint8_t ic_ew_mod_u8(uint8_t a, uint8_t b) {
  return b == 0 ? 0 : (uint8_t)(a % b);
}

#define IC_ELEMENTWISE_DEF(NAME, RUN)                                                      \
  {                                                                                        \
    .name = NAME, .n_inputs = 2, .inputs = ic_elementwise_blocked_inputs, .n_outputs = 1,  \
    .outputs = ic_elementwise_outputs, .attrs_size = sizeof(ic_elementwise_attrs),         \
    .parse = ic_elementwise_parse, .infer = ic_elementwise_infer, .cpu = RUN,              \
  }

/* The same for the ops Paddle also registers for bool (add: or, mul: and). */
#define IC_ELEMENTWISE_BOOL_DEF(NAME, RUN)                                                 \
  {                                                                                        \
    .name = NAME, .n_inputs = 2, .inputs = ic_elementwise_blocked_inputs, .n_outputs = 1,  \
    .outputs = ic_elementwise_outputs, .attrs_size = sizeof(ic_elementwise_attrs),         \
    .parse = ic_elementwise_parse, .infer = ic_elementwise_infer_bool, .cpu = RUN,         \
  }

#ifdef __cplusplus
}
#endif

#endif
