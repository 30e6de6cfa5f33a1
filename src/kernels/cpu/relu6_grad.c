/* relu6_grad: X@GRAD = Out@GRAD * (0 < Out < threshold): 0 at both ends. Paddle 3's relu6_grad
 * clips at 6 whatever `threshold` says; icore reads `threshold` (default 6), as its relu6.
 * Reads Out (phi's relu6 grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (relu6.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  relu6_attrs *a = attrs;
  a->threshold = (float)ic_ar_float(r, "threshold", 6.0);
  return r->st;
}

IC_ACTGRAD_RUN(relu6_grad, relu6_attrs, 1, relu6_grad_f32, relu6_grad_f64)

const ic_opdef ic_op_relu6_grad =
    IC_ACTGRAD_DEF(relu6_grad, relu6_attrs, parse, ic_actgrad_inputs_out);
