/* thresholded_relu_grad: X@GRAD = Out@GRAD * (X > threshold) (the `value` attribute, a constant, has no
 * gradient).
 * Reads X (phi's thresholded_relu grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (thresholded_relu.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "threshold", 1.0f);
  a->q = (float)ic_ar_float(r, "value", 0.0f);
  return r->st;
}

IC_ACTGRAD_RUN(thresholded_relu_grad, ic_act2_attrs, 1, thresholded_relu_grad_f32, thresholded_relu_grad_f64)

const ic_opdef ic_op_thresholded_relu_grad =
    IC_ACTGRAD_DEF(thresholded_relu_grad, ic_act2_attrs, parse, ic_actgrad_inputs_x);
