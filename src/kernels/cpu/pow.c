/* pow: Out = X ^ factor for float32, float64, int32 and int64. The exponent is the float
 * attribute `factor` (default 1), or the one-element input FactorTensor when given (read as
 * a float, as Paddle's pow op reads it). Floats compute powf / pow in the input's precision;
 * integers take the exponent converted to the integer type and multiply in the integer type,
 * wrapping on overflow as Paddle 3.3 does (46340^3 in int32 is 214822976); a negative
 * exponent gives 1 / X^e truncated: 0, or +-1 for X = +-1, and 0 for X = 0 (Paddle 3.3's
 * integer kernel does not return for a negative exponent)
 * (paddle/phi/kernels/funcs/activation_functor.h PowFunctor). */
#include "kernels/cpu/activation.h"
#include "kernels/cpu/convert.h"

/* FactorTensor is read on the host (IC_SLOT_VALUE), so that a device executor keeps it
 * there for the CUDA kernel too. */
static const ic_slotdef k_inputs[2] = {{"X", 0},
                                       {"FactorTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pow_attrs *a = attrs;
  a->factor = (float)ic_ar_float(r, "factor", 1.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) { return ic_infer_x_with_scalars(c, 1, 1); }

static ic_status pow_cpu(ic_kctx *c) {
  const pow_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *ft = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  float f = ft ? (float)ic_read_f64(ft, 0) : a->factor;
  int64_t n = ic_numel(x->ndim, x->dims);
  switch (x->dtype) {
    case IC_FP32: IC_UNARY_LOOP(float, x->data, o->data, n, powf(v, f)); break;
    case IC_FP64: IC_UNARY_LOOP(double, x->data, o->data, n, pow(v, (double)f)); break;
    case IC_INT32: {
      int32_t e = ic_f64_to_i32((double)f);
      IC_UNARY_LOOP(int32_t, x->data, o->data, n, ic_pow_i32(v, e));
      break;
    }
    default: {
      int64_t e = ic_f64_to_i64((double)f);
      IC_UNARY_LOOP(int64_t, x->data, o->data, n, ic_pow_i64(v, e));
      break;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_pow = {
    .name = "pow", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = ic_activation_outputs, .attrs_size = sizeof(pow_attrs), .parse = parse,
    .infer = infer, .cpu = pow_cpu,
};
