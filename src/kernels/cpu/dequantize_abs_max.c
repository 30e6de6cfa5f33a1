/* dequantize_abs_max (quantized inference models of Paddle 1.x/2.x): X int8 or int16, Scale
 * float32 (its first element), Out float32 of X's dims = Scale[0] * X / max_range, computed
 * in float in that order (paddle/phi/kernels/cpu/dequantize_abs_max_kernel.cc). */
#include "kernels/kernel.h"

typedef struct dam_attrs {
  float max_range;
} dam_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dam_attrs *a = attrs;
  a->max_range = (float)ic_ar_float_req(r, "max_range");
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *s = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_INT8) | IC_DT(IC_INT16));
  if (!st) st = ic_kcheck_dtype(c, 1, 0, IC_DT(IC_FP32));
  if (st) return st;
  if (ic_tensor_numel_(s) < 1) return ic_kfail_in(c, 1, 0, "expected at least one element");
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_FP32, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const dam_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const float s = ((const float *)ic_in(c, 1, 0)->data)[0];
  float *o = ic_out(c, 0, 0)->data;
  const int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_INT8) {
    const int8_t *p = x->data;
    for (int64_t i = 0; i < n; i++) o[i] = s * (float)p[i] / a->max_range;
  } else {
    const int16_t *p = x->data;
    for (int64_t i = 0; i < n; i++) o[i] = s * (float)p[i] / a->max_range;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Scale", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_dequantize_abs_max = {
    .name = "dequantize_abs_max", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(dam_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
