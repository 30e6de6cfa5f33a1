/* requantize (oneDNN int8 inference, Paddle's quant2 flow): Input int8, uint8 or bfloat16
 * quantized with Scale_in / Shift_in to Output quantized with Scale_out / Shift_out, same
 * dims. With r = Scale_in / Scale_out (float), the value is x * (1 / r) plus the zero point
 * clip(lround(Shift_out - (1 / r) * Shift_in), 0, 255) when either shift (truncated to an
 * int) is nonzero; saturated and rounded to nearest even. Output is uint8 with a shift, else
 * Input's dtype; a nonzero Shift_in needs a uint8 Input
 * (paddle/phi/kernels/onednn/requantize_kernel.cc). */
#include "kernels/cpu/onednn_quant.h"

typedef struct requant_attrs {
  float scale_in, scale_out;
  int32_t shift_in, shift_out;
} requant_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  requant_attrs *a = attrs;
  a->scale_in = (float)ic_ar_float(r, "Scale_in", 1.0);
  a->scale_out = (float)ic_ar_float(r, "Scale_out", 1.0);
  const double si = ic_ar_float(r, "Shift_in", 0.0), so = ic_ar_float(r, "Shift_out", 0.0);
  if (r->st) return r->st;
  if (a->scale_in == 0.0f) return ic_ar_fail(r, "Scale_in", "is 0, expected a nonzero scale");
  if (a->scale_out == 0.0f) return ic_ar_fail(r, "Scale_out", "is 0, expected a nonzero scale");
  if (!(si > -2147483649.0 && si < 2147483648.0)) return ic_ar_fail(r, "Shift_in", "is %g", si);
  if (!(so > -2147483649.0 && so < 2147483648.0)) return ic_ar_fail(r, "Shift_out", "is %g", so);
  a->shift_in = (int32_t)si;
  a->shift_out = (int32_t)so;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const requant_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_INT8) | IC_DT(IC_UINT8) | IC_DT(IC_BF16));
  if (st) return st;
  if (a->shift_in != 0 && x->dtype != IC_UINT8) {
    return ic_kfail_in(c, 0, 0, "expected uint8 with a nonzero Shift_in (%d)", (int)a->shift_in);
  }
  const bool with_shift = a->shift_in != 0 || a->shift_out != 0;
  ic_tensor_set_meta(ic_out(c, 0, 0), with_shift ? IC_UINT8 : x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const requant_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x);
  const float r = a->scale_in / a->scale_out, inv = 1.0f / r;
  float z = 0.0f;
  if (a->shift_in != 0 || a->shift_out != 0) {
    const long s = lroundf((float)a->shift_out - inv * (float)a->shift_in);
    z = (float)(s < 0 ? 0 : s > 255 ? 255 : s);
  }
  for (int64_t i = 0; i < n; i++) {
    float v = ic_q_load(x->dtype, x->data, i) * inv;
    if (z != 0.0f) v += z;
    ic_q_store(o->dtype, o->data, i, v);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}};
static const ic_slotdef outputs[] = {{"Output", 0}};

const ic_opdef ic_op_requantize = {
    .name = "requantize", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(requant_attrs), .parse = parse, .infer = infer, .cpu = run,
};
