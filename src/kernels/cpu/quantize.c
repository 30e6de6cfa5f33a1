/* quantize (oneDNN int8 inference, Paddle's quant2 flow): Input float32 to Output of the same
 * dims: x * Scale (when Scale != 1) + Shift (when the shift, truncated to an int, is not 0),
 * saturated and rounded to nearest even. Output is bfloat16 when bfloat16 is set, else int8
 * when is_negative_input is set and there is no shift, else uint8. output_format only names
 * oneDNN's memory layout; the values are the same
 * (paddle/phi/kernels/onednn/quantize_kernel.cc). */
#include "kernels/cpu/onednn_quant.h"

typedef struct quant_attrs {
  float scale;
  int32_t shift;
  bool negative, bf16;
} quant_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  quant_attrs *a = attrs;
  a->scale = (float)ic_ar_float(r, "Scale", 1.0);
  const double shift = ic_ar_float(r, "Shift", 0.0);
  a->negative = ic_ar_bool(r, "is_negative_input", false);
  a->bf16 = ic_ar_bool(r, "bfloat16", false);
  (void)ic_ar_str(r, "output_format", "NHWC");
  if (r->st) return r->st;
  if (a->scale == 0.0f) return ic_ar_fail(r, "Scale", "is 0, expected a nonzero scale");
  if (!(shift > -1.0 && shift < 256.0)) {
    return ic_ar_fail(r, "Shift", "is %g, expected 0 to 255", shift);
  }
  a->shift = (int32_t)shift;
  return IC_OK;
}

static ic_dtype out_dtype(const quant_attrs *a) {
  return a->bf16 ? IC_BF16 : a->negative && a->shift == 0 ? IC_INT8 : IC_UINT8;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_FP32));
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), out_dtype(c->attrs), x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const quant_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const float *p = x->data;
  const int64_t n = ic_tensor_numel_(x);
  const ic_dtype dt = out_dtype(a);
  const bool with_scale = a->scale != 1.0f;
  const float z = (float)a->shift;
  for (int64_t i = 0; i < n; i++) {
    float v = with_scale ? p[i] * a->scale : p[i];
    if (a->shift) v += z;
    ic_q_store(dt, o->data, i, v);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}};
static const ic_slotdef outputs[] = {{"Output", 0}};

const ic_opdef ic_op_quantize = {
    .name = "quantize", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(quant_attrs), .parse = parse, .infer = infer, .cpu = run,
};
