/* softshrink_grad: X@GRAD = Out@GRAD * ((X > lambda) + (X < -lambda)).
 * Reads X (phi's softshrink grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (softshrink.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "lambda", 0.5f);
  return r->st;
}

IC_ACTGRAD_RUN(softshrink_grad, ic_act1_attrs, 1, softshrink_grad_f32, softshrink_grad_f64)

const ic_opdef ic_op_softshrink_grad =
    IC_ACTGRAD_DEF(softshrink_grad, ic_act1_attrs, parse, ic_actgrad_inputs_x);
