/* rrelu: Out = X where X >= 0, else X * slope, with Noise = the slope per element (1 where
 * X >= 0). With is_test true (what save_inference_model writes) the slope is fixed:
 * (lower + upper) / 2 computed in float, then in X's dtype (a NaN X gives NaN and Noise the
 * slope, -0 stays -0 with Noise 1). With is_test false Paddle draws every slope at random
 * from U(lower, upper) with its CPU generator, which icore cannot reproduce: such an op is
 * refused (supports) rather than approximated. Attributes lower (default 1/8) and upper
 * (default 1/3) must satisfy 0 <= lower <= upper <= 1 (RReluInferMeta); float32 and
 * float64 (Paddle also registers bfloat16 / float16, storage-only in icore)
 * (paddle/phi/kernels/cpu/rrelu_kernel.cc). */
#include "kernels/kernel.h"

typedef struct rrelu_attrs {
  float lower, upper;
  bool is_test;
} rrelu_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  rrelu_attrs *a = attrs;
  a->lower = (float)ic_ar_float(r, "lower", 1.0 / 8.0);
  a->upper = (float)ic_ar_float(r, "upper", 1.0 / 3.0);
  a->is_test = ic_ar_bool(r, "is_test", false);
  if (r->st) return r->st;
  if (!(a->lower >= 0.0f && a->lower <= 1.0f)) {
    return ic_ar_fail(r, "lower", "is %g, expected in [0, 1]", a->lower);
  }
  if (!(a->upper >= 0.0f && a->upper <= 1.0f)) {
    return ic_ar_fail(r, "upper", "is %g, expected in [0, 1]", a->upper);
  }
  if (a->upper < a->lower) {
    return ic_ar_fail(r, "upper", "is %g, expected >= lower (%g)", a->upper, a->lower);
  }
  return IC_OK;
}

static ic_status supports(const ic_op *op, const void *attrs, ic_err *err) {
  const rrelu_attrs *a = attrs;
  char where[160];
  if (!a->is_test) {
    return ic_err_set(err, IC_ERR_UNSUPPORTED,
                      "%s: rrelu with is_test false draws a random slope per element from "
                      "U(%g, %g) with Paddle's random generator, which icore does not "
                      "reproduce; only is_test true (slope (lower + upper) / 2) is implemented",
                      ic_op_where(op, where, sizeof where), a->lower, a->upper);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  ic_tensor *noise = ic_out(c, 1, 0);
  if (noise) ic_tensor_set_meta(noise, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define RRELU_LOOP(T)                                                                      \
  do {                                                                                     \
    const T *restrict xp = x->data;                                                        \
    T *restrict op = o->data;                                                              \
    T *restrict np = noise ? noise->data : NULL;                                           \
    const T mid = (T)((a->lower + a->upper) / 2.0f);                                       \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T v = xp[i];                                                                   \
      const bool pos = v >= (T)0;                                                          \
      op[i] = pos ? v : v * mid;                                                           \
      if (np) np[i] = pos ? (T)1 : mid;                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const rrelu_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0), *noise = ic_out(c, 1, 0);
  const int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) {
    RRELU_LOOP(float);
  } else {
    RRELU_LOOP(double);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Noise", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_rrelu = {
    .name = "rrelu", .n_inputs = 1, .inputs = inputs, .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(rrelu_attrs), .parse = parse, .infer = infer, .cpu = run,
    .supports = supports,
};
