/* cast: Out = X converted to `out_dtype` (a Paddle VarType number), between any two of
 * icore's dtypes. `in_dtype` is informational: like Paddle's CastKernel, icore converts from
 * X's actual dtype.
 *
 * Conversions are Paddle's static_cast on x86-64 (paddle/phi/kernels/cpu/cast_kernel.cc):
 * float to integer truncates toward zero, with NaN and out-of-range values giving INT_MIN
 * (int8, int16 and uint8 through int32, keeping the low bits: -1.5 -> uint8 255); integer
 * narrowing wraps; anything to bool is `!= 0` (NaN is true); to float16 and bfloat16 rounds
 * to nearest even through float (half.h); float16 and bfloat16 widen exactly. */
#include <string.h>

#include "kernels/cpu/cast.h"
#include "kernels/cpu/fill.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  cast_attrs *a = attrs;
  if (!ic_ar_has(r, "out_dtype")) {
    ic_ar_fail(r, "out_dtype", "is missing (required, INT)");
    return r->st;
  }
  ic_fill_parse_dtype(r, "out_dtype", 0, IC_DT_ANY, &a->out_dtype);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const cast_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_ANY);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->out_dtype, x->ndim, x->dims);
  return IC_OK;
}

/* Decoders: a source element as a C value (float16 and bfloat16 as float, bool as 0/1). */
#define DEC_SAME(v) (v)
#define DEC_BOOL(v) ((uint8_t)((v) != 0))
#define DEC_F16(v) ic_f16_to_f32(v)
#define DEC_BF16(v) ic_bf16_to_f32(v)

/* Encoders: a C value of any arithmetic type as a target element. */
static inline int32_t int_to_i32(int64_t v) { return ic_wrap_i32(v); }
static inline int32_t flt_to_i32(float v) { return ic_f64_to_i32(v); }
static inline int64_t int_to_i64(int64_t v) { return v; }
static inline int64_t flt_to_i64(float v) { return ic_f64_to_i64(v); }
#define TO_I32(v) \
  _Generic((v), float: flt_to_i32, double: ic_f64_to_i32, default: int_to_i32)(v)
#define TO_I64(v) \
  _Generic((v), float: flt_to_i64, double: ic_f64_to_i64, default: int_to_i64)(v)
#define ENC_F32(v) ((float)(v))
#define ENC_F64(v) ((double)(v))
#define ENC_F16(v) ic_f32_to_f16((float)(v))
#define ENC_BF16(v) ic_f32_to_bf16((float)(v))
#define ENC_BOOL(v) ((uint8_t)((v) != 0))
#define ENC_I64(v) TO_I64(v)
#define ENC_I32(v) TO_I32(v)
#define ENC_I16(v) ic_wrap_i16(TO_I32(v))
#define ENC_I8(v) ic_wrap_i8(TO_I32(v))
#define ENC_U8(v) ic_wrap_u8(TO_I32(v))

#define LOOP(ST, DEC, DT, ENC)                                                             \
  do {                                                                                     \
    const ST *restrict s_ = x->data;                                                       \
    DT *restrict d_ = o->data;                                                             \
    for (int64_t i = 0; i < n; i++) d_[i] = ENC(DEC(s_[i]));                               \
  } while (0)

#define FROM_ANY(DT, ENC)                                                                  \
  switch (x->dtype) {                                                                      \
    case IC_BOOL: LOOP(uint8_t, DEC_BOOL, DT, ENC); break;                                 \
    case IC_UINT8: LOOP(uint8_t, DEC_SAME, DT, ENC); break;                                \
    case IC_INT8: LOOP(int8_t, DEC_SAME, DT, ENC); break;                                  \
    case IC_INT16: LOOP(int16_t, DEC_SAME, DT, ENC); break;                                \
    case IC_INT32: LOOP(int32_t, DEC_SAME, DT, ENC); break;                                \
    case IC_INT64: LOOP(int64_t, DEC_SAME, DT, ENC); break;                                \
    case IC_FP16: LOOP(uint16_t, DEC_F16, DT, ENC); break;                                 \
    case IC_BF16: LOOP(uint16_t, DEC_BF16, DT, ENC); break;                                \
    case IC_FP32: LOOP(float, DEC_SAME, DT, ENC); break;                                   \
    case IC_FP64: LOOP(double, DEC_SAME, DT, ENC); break;                                  \
    case IC_COMPLEX64: case IC_COMPLEX128: break; /* refused by infer (IC_DT_ANY) */       \
  }

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == o->dtype && x->dtype != IC_BOOL) {
    memcpy(o->data, x->data, (size_t)n * ic_dtype_size(x->dtype));
    return IC_OK;
  }
  switch (o->dtype) {
    case IC_BOOL: FROM_ANY(uint8_t, ENC_BOOL); break;
    case IC_UINT8: FROM_ANY(uint8_t, ENC_U8); break;
    case IC_INT8: FROM_ANY(int8_t, ENC_I8); break;
    case IC_INT16: FROM_ANY(int16_t, ENC_I16); break;
    case IC_INT32: FROM_ANY(int32_t, ENC_I32); break;
    case IC_INT64: FROM_ANY(int64_t, ENC_I64); break;
    case IC_FP16: FROM_ANY(uint16_t, ENC_F16); break;
    case IC_BF16: FROM_ANY(uint16_t, ENC_BF16); break;
    case IC_FP32: FROM_ANY(float, ENC_F32); break;
    case IC_FP64: FROM_ANY(double, ENC_F64); break;
    case IC_COMPLEX64: case IC_COMPLEX128: break; /* refused by parse (IC_DT_ANY) */
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_cast = {
    .name = "cast",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(cast_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
