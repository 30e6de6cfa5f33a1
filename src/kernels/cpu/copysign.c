/* copysign: out = |x| with the sign of y, with Paddle's broadcasting of x and y (ew_simple.h,
 * trailing dims aligned), x and y of one dtype. float32 and float64 through copysignf /
 * copysign (a -0 or a NaN's sign bit in y counts: copysign(1, -0) = -1). The integer dtypes
 * as Paddle's CopySignFunctor computes them, std::copysign promoting both to double and the
 * result converted back: y < 0 gives -|x|, else |x|; the most negative value stays itself
 * (|x| = 2^(bits-1) converts back to it, as the x86 conversion wraps); int64 values beyond
 * 2^53 come back rounded to a double. bool: out = x. float16 and bfloat16, which Paddle also
 * registers, are storage-only dtypes in icore. Legacy slots x, y, out
 * (paddle/phi/kernels/impl/copysign_kernel_impl.h). */
#include <math.h>

#include "kernels/cpu/ew_simple.h"

/* (T)copysign((double)a, (double)b) with the out-of-range conversions x86 gives: a value at
 * or beyond 2^63 in magnitude becomes INT64_MIN (cvttsd2si's "integer indefinite"), and the
 * narrower types truncate the int32 / int64 conversion. */
static inline int64_t cs_i64(int64_t a, int64_t b) {
  double d = copysign((double)a, (double)b);
  if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return INT64_MIN;
  return (int64_t)d;
}
static inline int32_t cs_i32(int32_t a, int32_t b) {
  double d = copysign((double)a, (double)b);
  return d >= 2147483648.0 ? INT32_MIN : (int32_t)d;
}

#define F32(a, b) copysignf(a, b)
#define F64(a, b) copysign(a, b)
#define I64(a, b) cs_i64(a, b)
#define I32(a, b) cs_i32(a, b)
#define I16(a, b) ((int16_t)(uint16_t)(uint32_t)cs_i32(a, b))
#define I8(a, b) ((int8_t)(uint8_t)(uint32_t)cs_i32(a, b))
#define U8(a, b) ((void)(b), (a))
IC_EWS_LOOPS(cs_f32, float, F32)
IC_EWS_LOOPS(cs_f64, double, F64)
IC_EWS_LOOPS(cs_i64, int64_t, I64)
IC_EWS_LOOPS(cs_i32, int32_t, I32)
IC_EWS_LOOPS(cs_i16, int16_t, I16)
IC_EWS_LOOPS(cs_i8, int8_t, I8)
IC_EWS_LOOPS(cs_u8, uint8_t, U8)

static ic_status infer(ic_kctx *c) {
  return ic_ews_infer(c, IC_DT_NUM | IC_DT(IC_BOOL) | IC_DT(IC_UINT8) | IC_DT(IC_INT8) |
                             IC_DT(IC_INT16));
}

static ic_status run(ic_kctx *c) {
  static const ic_ew_loop f32[3] = IC_EWS_ROW(cs_f32), f64[3] = IC_EWS_ROW(cs_f64),
                          i64[3] = IC_EWS_ROW(cs_i64), i32[3] = IC_EWS_ROW(cs_i32),
                          i16[3] = IC_EWS_ROW(cs_i16), i8[3] = IC_EWS_ROW(cs_i8),
                          u8[3] = IC_EWS_ROW(cs_u8);
  switch (ic_in(c, 0, 0)->dtype) {
    case IC_FP32: return ic_ews_run(c, f32);
    case IC_FP64: return ic_ews_run(c, f64);
    case IC_INT64: return ic_ews_run(c, i64);
    case IC_INT32: return ic_ews_run(c, i32);
    case IC_INT16: return ic_ews_run(c, i16);
    case IC_INT8: return ic_ews_run(c, i8);
    default: return ic_ews_run(c, u8); /* uint8, bool: x */
  }
}

static const ic_slotdef inputs[] = {{"x", 0}, {"y", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_copysign = {
    .name = "copysign", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_elementwise_attrs), .parse = ic_elementwise_parse, .infer = infer,
    .cpu = run,
};
