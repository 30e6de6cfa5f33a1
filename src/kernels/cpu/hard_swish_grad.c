/* hard_swish_grad: X@GRAD = Out@GRAD * ((X + offset > 0) (2X + offset) / scale where X + offset <
 * threshold, 1 from there on): (2X + offset) / scale at X = -offset is cut to 0, and 1 at
 * X + offset = threshold. Past the threshold phi's formula gives 1, the derivative only when
 * threshold = scale (the defaults, and every model); icore keeps phi's formula for other
 * values too (Paddle 2.x computed it so; Paddle 3.3.1 ignores the three attributes and uses
 * 6, 6, 3 in both directions, checked).
 * Reads X (phi's hard_swish grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (hard_swish.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  hard_swish_attrs *a = attrs;
  a->threshold = (float)ic_ar_float(r, "threshold", 6.0);
  a->scale = (float)ic_ar_float(r, "scale", 6.0);
  a->offset = (float)ic_ar_float(r, "offset", 3.0);
  return r->st;
}

IC_ACTGRAD_RUN(hard_swish_grad, hard_swish_attrs, 1, hard_swish_grad_f32, hard_swish_grad_f64)

const ic_opdef ic_op_hard_swish_grad =
    IC_ACTGRAD_DEF(hard_swish_grad, hard_swish_attrs, parse, ic_actgrad_inputs_x);
