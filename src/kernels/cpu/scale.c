/* scale: Out = scale * X + bias, or scale * (X + bias) when `bias_after_scale` is false
 * (default true; scale 1, bias 0). Inputs ScaleTensor and BiasTensor (one element each),
 * when present, replace the attributes.
 *
 * As in paddle/phi/kernels/cpu/scale_kernel.cc, scale and bias are first converted to X's
 * dtype (so an int32 X scaled by 2.5 is scaled by 2) and the arithmetic is done in that
 * dtype; integer arithmetic wraps (uint8, int8 and int16 too). */
#include "kernels/cpu/convert.h"
#include "kernels/cpu/fill.h"
#include "kernels/cpu/scale.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  scale_attrs *a = attrs;
  a->scale = ic_ar_float(r, "scale", 1.0);
  a->bias = ic_ar_float(r, "bias", 0.0);
  a->bias_after_scale = ic_ar_bool(r, "bias_after_scale", true);
  return r->st;
}

enum { IN_X = IC_SCALE_X, IN_SCALE = IC_SCALE_SCALE, IN_BIAS = IC_SCALE_BIAS };

/* X: the numeric dtypes and, as Paddle's CPU kernel registers, uint8, int8 and int16 (a
 * uint8 mask scaled: SOLOv2's 2.x export) and complex64 / complex128 (a spectrum scaled: the
 * real scale and bias act as complex(scale, 0) and complex(bias, 0)); ScaleTensor /
 * BiasTensor: one numeric element. */
static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_NUM | IC_DT(IC_UINT8) | IC_DT(IC_INT8) |
                                                 IC_DT(IC_INT16) | IC_DT_COMPLEX);
  if (st) return st;
  if (x->dtype == IC_UINT8 || x->dtype == IC_INT8 || x->dtype == IC_INT16 ||
      x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128) {
    for (size_t s = IN_SCALE; s <= IN_BIAS; s++) {
      const ic_tensor *t = ic_in(c, s, 0);
      if (!t) continue;
      if ((st = ic_kcheck_dtype(c, s, 0, IC_DT_NUM))) return st;
      if (ic_tensor_numel_(t) != 1) return ic_kfail_in(c, s, 0, "expected one element");
    }
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
    return IC_OK;
  }
  return ic_infer_x_with_scalars(c, IN_SCALE, IN_BIAS);
}

static inline uint8_t to_u8(double v) { return ic_wrap_u8(ic_f64_to_i64(v)); }
static inline int8_t to_i8(double v) { return ic_wrap_i8(ic_f64_to_i64(v)); }
static inline int16_t to_i16(double v) { return ic_wrap_i16(ic_f64_to_i64(v)); }

/* The attribute, or the tensor's value when the tensor is present. */
static ic_fill_scalar operand(const ic_kctx *c, size_t s, double attr) {
  const ic_tensor *t = ic_in(c, s, 0);
  return t ? ic_fill_scalar_of(t) : (ic_fill_scalar){.f = attr};
}

#define FLOAT_LOOP(T)                                                                      \
  do {                                                                                     \
    const T *restrict xp = x->data;                                                        \
    T *restrict op = o->data, sc = (T)s.f, bi = (T)b.f;                                    \
    if (after) {                                                                           \
      for (int64_t i = 0; i < n; i++) op[i] = sc * xp[i] + bi;                             \
    } else {                                                                               \
      for (int64_t i = 0; i < n; i++) op[i] = sc * (xp[i] + bi);                           \
    }                                                                                      \
  } while (0)

#define INT_LOOP(T, U, TO_T)                                                               \
  do {                                                                                     \
    const T *restrict xp = x->data;                                                        \
    T *restrict op = o->data;                                                              \
    U sc = (U)(s.is_int ? (T)s.i : TO_T(s.f));                                             \
    U bi = (U)(b.is_int ? (T)b.i : TO_T(b.f));                                             \
    if (after) {                                                                           \
      for (int64_t i = 0; i < n; i++) op[i] = (T)(sc * (U)xp[i] + bi);                     \
    } else {                                                                               \
      for (int64_t i = 0; i < n; i++) op[i] = (T)(sc * ((U)xp[i] + bi));                   \
    }                                                                                      \
  } while (0)

#define COMPLEX_LOOP(T)                                                                    \
  do {                                                                                     \
    const T *restrict xp = x->data;                                                        \
    T *restrict op = o->data, sc = (T)s.f, bi = (T)b.f;                                    \
    for (int64_t i = 0; i < n; i++) {                                                      \
      op[2 * i] = after ? sc * xp[2 * i] + bi : sc * (xp[2 * i] + bi);                     \
      op[2 * i + 1] = sc * xp[2 * i + 1];                                                  \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const scale_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  ic_fill_scalar s = operand(c, IN_SCALE, a->scale), b = operand(c, IN_BIAS, a->bias);
  bool after = a->bias_after_scale;
  switch (x->dtype) {
    case IC_FP32: FLOAT_LOOP(float); break;
    case IC_FP64: FLOAT_LOOP(double); break;
    case IC_INT32: INT_LOOP(int32_t, uint32_t, ic_f64_to_i32); break;
    case IC_UINT8: INT_LOOP(uint8_t, uint32_t, to_u8); break;
    case IC_INT8: INT_LOOP(int8_t, uint32_t, to_i8); break;
    case IC_INT16: INT_LOOP(int16_t, uint32_t, to_i16); break;
    case IC_COMPLEX64: COMPLEX_LOOP(float); break;
    case IC_COMPLEX128: COMPLEX_LOOP(double); break;
    default: INT_LOOP(int64_t, uint64_t, ic_f64_to_i64); break;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"ScaleTensor", IC_SLOT_OPTIONAL}, {"BiasTensor", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_scale = {
    .name = "scale",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(scale_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
