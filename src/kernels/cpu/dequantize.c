/* dequantize (oneDNN int8 inference, Paddle's quant2 flow): Input int8, uint8 or bfloat16 to
 * Output float32 of the same dims: (x - Shift) * (1 / Scale) in float, the shift truncated to
 * an int in [0, 255] (paddle/phi/kernels/onednn/dequantize_kernel.cc; oneDNN applies the
 * destination scale as a product with its reciprocal, which Paddle's outputs match bit for
 * bit). */
#include "kernels/cpu/onednn_quant.h"

typedef struct dequant_attrs {
  float scale;
  int32_t shift;
} dequant_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dequant_attrs *a = attrs;
  a->scale = (float)ic_ar_float(r, "Scale", 1.0);
  const double shift = ic_ar_float(r, "Shift", 0.0);
  if (r->st) return r->st;
  if (a->scale == 0.0f) return ic_ar_fail(r, "Scale", "is 0, expected a nonzero scale");
  if (!(shift > -1.0 && shift < 256.0)) {
    return ic_ar_fail(r, "Shift", "is %g, expected 0 to 255", shift);
  }
  a->shift = (int32_t)shift;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_INT8) | IC_DT(IC_UINT8) | IC_DT(IC_BF16));
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_FP32, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const dequant_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  float *o = ic_out(c, 0, 0)->data;
  const int64_t n = ic_tensor_numel_(x);
  const float inv = 1.0f / a->scale, z = (float)a->shift;
  for (int64_t i = 0; i < n; i++) o[i] = (ic_q_load(x->dtype, x->data, i) - z) * inv;
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}};
static const ic_slotdef outputs[] = {{"Output", 0}};

const ic_opdef ic_op_dequantize = {
    .name = "dequantize", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(dequant_attrs), .parse = parse, .infer = infer, .cpu = run,
};
