/* softplus_grad: X@GRAD = Out@GRAD where beta X > threshold, else Out@GRAD / (1 + exp(-beta X)).
 * Reads X (phi's softplus grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (softplus.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "beta", 1.0f);
  a->q = (float)ic_ar_float(r, "threshold", 20.0f);
  return r->st;
}

IC_ACTGRAD_RUN(softplus_grad, ic_act2_attrs, 1, softplus_grad_f32, softplus_grad_f64)

const ic_opdef ic_op_softplus_grad =
    IC_ACTGRAD_DEF(softplus_grad, ic_act2_attrs, parse, ic_actgrad_inputs_x);
