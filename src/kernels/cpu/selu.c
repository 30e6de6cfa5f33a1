/* selu: Out = scale X for X > 0, scale (alpha exp(X) - alpha) otherwise (Paddle's default scale
 * and alpha). float32 and float64 (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "scale", 1.0507009873554804934193349852946f);
  a->q = (float)ic_ar_float(r, "alpha", 1.6732632423543772848170429916717f);
  return r->st;
}

IC_ACTIVATION_RUN(selu, ic_act2_attrs, selu_f32, selu_f64)

const ic_opdef ic_op_selu = IC_ACTIVATION_DEF(selu, ic_act2_attrs, parse, ic_activation_infer);
