/* leaky_relu_grad: X@GRAD = Out@GRAD * (alpha for X < 0, 1 for X >= 0): 1 at X = 0.
 * Reads X (phi's leaky_relu grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (leaky_relu.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  leaky_relu_attrs *a = attrs;
  a->alpha = ic_ar_float(r, "alpha", (double)0.02f);
  return r->st;
}

IC_ACTGRAD_RUN(leaky_relu_grad, leaky_relu_attrs, 1, leaky_relu_grad_f32, leaky_relu_grad_f64)

const ic_opdef ic_op_leaky_relu_grad =
    IC_ACTGRAD_DEF(leaky_relu_grad, leaky_relu_attrs, parse, ic_actgrad_inputs_x);
