/* swish_grad: X@GRAD = Out@GRAD * (beta out + s (1 - beta out)), s = sigmoid(beta X), out = X s.
 * Paddle 3.3.1 ignores `beta` (computes beta = 1, forward and backward alike); icore honours
 * it, as its swish forward does and as the Paddle 2.x versions that wrote it did.
 * Reads X (phi's swish grad functor, activation_grad.h). */
#include "kernels/cpu/activation_grad.h"

/* The forward op's attributes and defaults (swish.c). */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  swish_attrs *a = attrs;
  a->beta = (float)ic_ar_float(r, "beta", 1.0);
  return r->st;
}

IC_ACTGRAD_RUN(swish_grad, swish_attrs, 1, swish_grad_f32, swish_grad_f64)

const ic_opdef ic_op_swish_grad =
    IC_ACTGRAD_DEF(swish_grad, swish_attrs, parse, ic_actgrad_inputs_x);
