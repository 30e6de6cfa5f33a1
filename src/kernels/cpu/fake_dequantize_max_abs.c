/* fake_dequantize_max_abs: Out = Scale[0] * X / max_range (the float attribute, required),
 * in X's type (paddle/fluid/operators/fake_dequantize_op.h DequantizeFunctor). float32 and
 * float64; Scale one element of X's dtype. */
#include "kernels/cpu/quant.h"

typedef struct fdq_attrs {
  float max_range;
} fdq_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Scale", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fdq_attrs *a = attrs;
  a->max_range = (float)ic_ar_float_req(r, "max_range");
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *s = ic_in(c, 1, 0);
  if (s->dtype != x->dtype || ic_numel(s->ndim, s->dims) != 1) {
    return ic_kfail_in(c, 1, 0, "expected one element of X's dtype");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const fdq_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *s = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) {
    const float *xp = x->data, sc = *(const float *)s->data;
    float *op = o->data;
    for (int64_t i = 0; i < n; i++) op[i] = sc * xp[i] / a->max_range;
  } else {
    const double *xp = x->data, sc = *(const double *)s->data;
    double *op = o->data;
    for (int64_t i = 0; i < n; i++) op[i] = sc * xp[i] / (double)a->max_range;
  }
  return IC_OK;
}

const ic_opdef ic_op_fake_dequantize_max_abs = {
    .name = "fake_dequantize_max_abs", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(fdq_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
