/* elu_grad: for alpha >= 0, X@GRAD = Out@GRAD where Out > 0, else Out@GRAD (Out + alpha);
 * for alpha < 0, Out@GRAD where X > 0, else Out@GRAD alpha exp(X).
 * Reads X and Out (phi's elu grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (elu.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "alpha", 1.0f);
  return r->st;
}

IC_ACTGRAD_RUN(elu_grad, ic_act1_attrs, 2, elu_grad_f32, elu_grad_f64)

const ic_opdef ic_op_elu_grad =
    IC_ACTGRAD_DEF(elu_grad, ic_act1_attrs, parse, ic_actgrad_inputs_x_out);
