/* mish: Out = X tanh(softplus(X)), softplus(X) = X above `threshold` (default 20), else ln(1 +
 * exp(X)). float32 and float64 (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "threshold", 20.0f);
  return r->st;
}

IC_ACTIVATION_RUN(mish, ic_act1_attrs, mish_f32, mish_f64)

const ic_opdef ic_op_mish = IC_ACTIVATION_DEF(mish, ic_act1_attrs, parse, ic_activation_infer);
