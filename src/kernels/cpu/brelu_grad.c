/* brelu_grad: X@GRAD = Out@GRAD * (t_min < X < t_max): 0 at both bounds.
 * Reads X (phi's brelu grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (brelu.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "t_min", 0.0f);
  a->q = (float)ic_ar_float(r, "t_max", 24.0f);
  return r->st;
}

IC_ACTGRAD_RUN(brelu_grad, ic_act2_attrs, 1, brelu_grad_f32, brelu_grad_f64)

const ic_opdef ic_op_brelu_grad =
    IC_ACTGRAD_DEF(brelu_grad, ic_act2_attrs, parse, ic_actgrad_inputs_x);
