/* hard_sigmoid_grad: X@GRAD = Out@GRAD * (0 < Out < 1) * slope.
 * Reads Out (phi's hard_sigmoid grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (hard_sigmoid.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  hard_sigmoid_attrs *a = attrs;
  a->slope = (float)ic_ar_float(r, "slope", 0.2);
  a->offset = (float)ic_ar_float(r, "offset", 0.5);
  return r->st;
}

IC_ACTGRAD_RUN(hard_sigmoid_grad, hard_sigmoid_attrs, 1, hard_sigmoid_grad_f32, hard_sigmoid_grad_f64)

const ic_opdef ic_op_hard_sigmoid_grad =
    IC_ACTGRAD_DEF(hard_sigmoid_grad, hard_sigmoid_attrs, parse, ic_actgrad_inputs_out);
