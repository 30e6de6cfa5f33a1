/* hard_shrink_grad: X@GRAD = Out@GRAD * (X <= -threshold or X >= threshold): Out@GRAD at
 * |X| = threshold, as Paddle 3.3.1 gives.
 * Reads X (phi's hard_shrink grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (hard_shrink.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "threshold", 0.5f);
  return r->st;
}

IC_ACTGRAD_RUN(hard_shrink_grad, ic_act1_attrs, 1, hard_shrink_grad_f32, hard_shrink_grad_f64)

const ic_opdef ic_op_hard_shrink_grad =
    IC_ACTGRAD_DEF(hard_shrink_grad, ic_act1_attrs, parse, ic_actgrad_inputs_x);
