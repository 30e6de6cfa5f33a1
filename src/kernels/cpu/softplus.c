/* softplus: Out = X where beta X > threshold, else ln(1 + exp(beta X)) / beta (beta 1, threshold
 * 20 by default). float32 and float64 (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "beta", 1.0f);
  a->q = (float)ic_ar_float(r, "threshold", 20.0f);
  return r->st;
}

IC_ACTIVATION_RUN(softplus, ic_act2_attrs, softplus_f32, softplus_f64)

const ic_opdef ic_op_softplus =
    IC_ACTIVATION_DEF(softplus, ic_act2_attrs, parse, ic_activation_infer);
