/* dequantize_linear: Y = X * Scale / qmax in Scale's float type (X, float32, float64 or int8,
 * converted to it first): per tensor (quant_axis < 0, Scale one element) or per channel
 * along quant_axis 0 or 1 (default 0). only_observer copies X (of Scale's dtype). Attributes
 * and pass-through outputs as quantize_linear (quantize_linear.c;
 * paddle/phi/kernels/impl/quantize_linear_impl.h DeQuantizeLinearImpl). */
#include <string.h>

#include "kernels/cpu/quant_linear.h"

static double read_x(const ic_tensor *x, int64_t i) {
  switch (x->dtype) {
    case IC_FP32: return ((const float *)x->data)[i];
    case IC_FP64: return ((const double *)x->data)[i];
    default: return ((const int8_t *)x->data)[i];
  }
}

static ic_status infer(ic_kctx *c) {
  const quant_linear_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, QL_X, 0, IC_DT_FLOAT | IC_DT(IC_INT8));
  int64_t ch, inner;
  if (!st) st = ic_kcheck_dtype(c, QL_SCALE, 0, IC_DT_FLOAT);
  if (st || (st = ic_quant_linear_channels(c, &ch, &inner))) return st;
  const ic_tensor *x = ic_in(c, QL_X, 0), *s = ic_in(c, QL_SCALE, 0);
  if (a->only_observer && x->dtype != s->dtype) {
    return ic_kfail_in(c, QL_X, 0, "only_observer copies X: expected Scale's dtype");
  }
  ic_tensor_set_meta(ic_out(c, QL_Y, 0), s->dtype, x->ndim, x->dims);
  ic_quant_linear_pass_meta(c);
  return IC_OK;
}

#define DEQUANT(T)                                                                         \
  do {                                                                                     \
    const T *sp = s->data, mr = (T)a->qmax;                                                \
    T *op = o->data;                                                                       \
    for (int64_t i = 0; i < n; i++) op[i] = (T)read_x(x, i) * sp[(i / inner) % ch] / mr;   \
  } while (0)

static ic_status run(ic_kctx *c) {
  const quant_linear_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, QL_X, 0), *s = ic_in(c, QL_SCALE, 0);
  ic_tensor *o = ic_out(c, QL_Y, 0);
  int64_t ch, inner, n = ic_numel(x->ndim, x->dims);
  ic_status st = ic_quant_linear_channels(c, &ch, &inner);
  if (st) return st;
  if (a->only_observer) {
    memcpy(o->data, x->data, (size_t)n * ic_dtype_size(x->dtype));
  } else if (s->dtype == IC_FP32) {
    DEQUANT(float);
  } else {
    DEQUANT(double);
  }
  ic_quant_linear_pass(c);
  return IC_OK;
}

const ic_opdef ic_op_dequantize_linear = {
    .name = "dequantize_linear", .n_inputs = 5, .inputs = ic_quant_linear_inputs,
    .n_outputs = 4, .outputs = ic_quant_linear_outputs,
    .attrs_size = sizeof(quant_linear_attrs), .parse = ic_quant_linear_parse, .infer = infer,
    .cpu = run,
};
