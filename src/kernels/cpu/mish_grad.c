/* mish_grad: X@GRAD = Out@GRAD (t + X (1 - t^2) (1 - exp(-sp))), sp = softplus(X) (X above
 * threshold), t = tanh(sp).
 * Reads X (phi's mish grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (mish.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "threshold", 20.0f);
  return r->st;
}

IC_ACTGRAD_RUN(mish_grad, ic_act1_attrs, 1, mish_grad_f32, mish_grad_f64)

const ic_opdef ic_op_mish_grad =
    IC_ACTGRAD_DEF(mish_grad, ic_act1_attrs, parse, ic_actgrad_inputs_x);
