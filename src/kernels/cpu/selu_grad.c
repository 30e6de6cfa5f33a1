/* selu_grad: X@GRAD = Out@GRAD (Out + scale alpha) where Out <= 0, else Out@GRAD scale.
 * Reads Out (phi's selu grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (selu.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "scale", 1.0507009873554804934193349852946f);
  a->q = (float)ic_ar_float(r, "alpha", 1.6732632423543772848170429916717f);
  return r->st;
}

IC_ACTGRAD_RUN(selu_grad, ic_act2_attrs, 1, selu_grad_f32, selu_grad_f64)

const ic_opdef ic_op_selu_grad =
    IC_ACTGRAD_DEF(selu_grad, ic_act2_attrs, parse, ic_actgrad_inputs_out);
