/* celu_grad: X@GRAD = Out@GRAD for X > 0, Out@GRAD exp(X / alpha) for X <= 0 (summed as four masked
 * terms, as Paddle: an overflowing exp(X / alpha) gives NaN even for X > 0).
 * Reads X (phi's celu grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (celu.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "alpha", 1.0f);
  return r->st;
}

IC_ACTGRAD_RUN(celu_grad, ic_act1_attrs, 1, celu_grad_f32, celu_grad_f64)

const ic_opdef ic_op_celu_grad =
    IC_ACTGRAD_DEF(celu_grad, ic_act1_attrs, parse, ic_actgrad_inputs_x);
