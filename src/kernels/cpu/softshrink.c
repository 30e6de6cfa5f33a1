/* softshrink: Out = X - lambda above lambda, X + lambda below -lambda, else 0 (lambda default
 * 0.5). float32 and float64 (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "lambda", 0.5f);
  return r->st;
}

IC_ACTIVATION_RUN(softshrink, ic_act1_attrs, softshrink_f32, softshrink_f64)

const ic_opdef ic_op_softshrink =
    IC_ACTIVATION_DEF(softshrink, ic_act1_attrs, parse, ic_activation_infer);
