/* pow_grad: X@GRAD = Out@GRAD * factor * X^(factor - 1) (phi PowGradFunctor, in X's float
 * type), the exponent being the attribute `factor` or the one-element input FactorTensor
 * when given, as in the forward pow. Inputs X, FactorTensor (optional), Out@GRAD, as Paddle
 * 3.3.1 writes them; float32 and float64. */
#include <math.h>

#include "kernels/cpu/activation.h"

static const ic_slotdef k_inputs[3] = {
    {"X", 0}, {"FactorTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pow_attrs *a = attrs;
  a->factor = (float)ic_ar_float(r, "factor", 1.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *ft = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  if (ft && ic_numel(ft->ndim, ft->dims) != 1)
    return ic_kfail_in(c, 1, 0, "expected one element, got %lld",
                       (long long)ic_numel(ft->ndim, ft->dims));
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, 2, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const pow_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *ft = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  float f = ft ? (float)ic_read_f64(ft, 0) : a->factor;
  int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) {
    const float *restrict xp = x->data, *restrict gp = g->data;
    float *restrict o = dx->data;
    for (int64_t i = 0; i < n; i++) o[i] = gp[i] * f * powf(xp[i], f - 1.0f);
  } else {
    const double *restrict xp = x->data, *restrict gp = g->data;
    double *restrict o = dx->data;
    const double fd = f;
    for (int64_t i = 0; i < n; i++) o[i] = gp[i] * fd * pow(xp[i], fd - 1.0);
  }
  return IC_OK;
}

const ic_opdef ic_op_pow_grad = {
    .name = "pow_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(pow_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
