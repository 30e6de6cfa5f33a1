/* sinh_grad: X@GRAD = Out@GRAD * cosh(X).
 * Reads X (phi's sinh grad functor), float32 and float64 in the data's type. */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_FN(sinh_grad, ic_noattrs, g * coshf(u), g * cosh(u))

IC_ACTGRAD_RUN(sinh_grad, ic_noattrs, 1, sinh_grad_f32, sinh_grad_f64)

const ic_opdef ic_op_sinh_grad =
    IC_ACTGRAD_DEF(sinh_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
