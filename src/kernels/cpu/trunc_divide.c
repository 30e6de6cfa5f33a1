/* trunc_divide: out = x / y rounded toward zero, with Paddle's broadcasting of x and y
 * (ew_simple.h) (Paddle 3's paddle.divide(x, y, rounding_mode="trunc"); TruncDivideFunctor in
 * paddle/phi/kernels/funcs/elementwise_functor.h). Floats: trunc(x / y) in x's precision,
 * x / y itself (inf or NaN) when y is 0. Integers (int8, uint8, int16, int32, int64): C's
 * truncating division; a zero divisor fails as in Paddle, and the one overflowing quotient
 * (the type's minimum / -1, undefined in C and a trap on x86) wraps to the minimum. Paddle
 * also registers float16 and bfloat16, which icore only stores. Legacy slots x, y, out. */
#include <math.h>
#include <stdint.h>

#include "kernels/cpu/ew_simple.h"

#define TD_FLT(T, F)                                                                       \
  static inline T td_##T(T a, T b) { return b == (T)0 ? a / b : F(a / b); }
TD_FLT(float, truncf)
TD_FLT(double, trunc)
/* small integers divide as int (C promotes them), so only the final store wraps */
#define TD_INT(T, WRAP)                                                                     \
  static inline T td_##T(T a, T b) {                                                       \
    return (WRAP && b == (T)-1) ? (T)(0 - (uint64_t)a) : (T)(a / b);                   \
  }
TD_INT(int8_t, 0)
TD_INT(uint8_t, 0)
TD_INT(int16_t, 0)
TD_INT(int32_t, 1)
TD_INT(int64_t, 1)

#define TD_LOOPS(T) IC_EWS_LOOPS(td_loop_##T, T, td_##T)
TD_LOOPS(float)
TD_LOOPS(double)
TD_LOOPS(int8_t)
TD_LOOPS(uint8_t)
TD_LOOPS(int16_t)
TD_LOOPS(int32_t)
TD_LOOPS(int64_t)

#define TD_DTYPES                                                                          \
  (IC_DT_FLOAT | IC_DT(IC_INT8) | IC_DT(IC_UINT8) | IC_DT(IC_INT16) | IC_DT_INT)

static ic_status infer(ic_kctx *c) { return ic_ews_infer(c, TD_DTYPES); }

static ic_status run(ic_kctx *c) {
  static const ic_ew_loop f32[3] = IC_EWS_ROW(td_loop_float),
                          f64[3] = IC_EWS_ROW(td_loop_double),
                          i8[3] = IC_EWS_ROW(td_loop_int8_t),
                          u8[3] = IC_EWS_ROW(td_loop_uint8_t),
                          i16[3] = IC_EWS_ROW(td_loop_int16_t),
                          i32[3] = IC_EWS_ROW(td_loop_int32_t),
                          i64[3] = IC_EWS_ROW(td_loop_int64_t);
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  const ic_ew_loop *l = NULL;
  switch (x->dtype) {
    case IC_FP32: l = f32; break;
    case IC_FP64: l = f64; break;
    case IC_INT8: l = i8; break;
    case IC_UINT8: l = u8; break;
    case IC_INT16: l = i16; break;
    case IC_INT32: l = i32; break;
    default: l = i64; break;
  }
  /* Every element of y meets some x when out is not empty (broadcasting only repeats). */
  if (x->dtype != IC_FP32 && x->dtype != IC_FP64 && ic_numel(x->ndim, x->dims) > 0) {
    const int64_t n = ic_numel(y->ndim, y->dims);
    for (int64_t k = 0; k < n; k++) {
      if (ic_read_i64(y, k) == 0) {
        return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                        "input y '%s' holds 0 at element %lld: integer division by zero",
                        ic_in_name(c, 1, 0), (long long)k);
      }
    }
  }
  return ic_ews_run(c, l);
}

static const ic_slotdef inputs[] = {{"x", 0}, {"y", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_trunc_divide = {
    .name = "trunc_divide", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ic_elementwise_attrs),
    .parse = ic_elementwise_parse, .infer = infer, .cpu = run,
};
