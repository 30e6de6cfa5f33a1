/* elu: Out = X for X >= 0, alpha (exp(X) - 1) otherwise (alpha default 1). float32 and float64
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "alpha", 1.0f);
  return r->st;
}

IC_ACTIVATION_RUN(elu, ic_act1_attrs, elu_f32, elu_f64)

const ic_opdef ic_op_elu = IC_ACTIVATION_DEF(elu, ic_act1_attrs, parse, ic_activation_infer);
