/* stanh_grad: X@GRAD = Out@GRAD * scale_a * scale_b * (1 - tanh(scale_a X)^2).
 * Reads X (phi's stanh grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (stanh.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "scale_a", 0.67f);
  a->q = (float)ic_ar_float(r, "scale_b", 1.7159f);
  return r->st;
}

IC_ACTGRAD_RUN(stanh_grad, ic_act2_attrs, 1, stanh_grad_f32, stanh_grad_f64)

const ic_opdef ic_op_stanh_grad =
    IC_ACTGRAD_DEF(stanh_grad, ic_act2_attrs, parse, ic_actgrad_inputs_x);
