/* cosh_grad: X@GRAD = Out@GRAD * sinh(X).
 * Reads X (phi's cosh grad functor), float32 and float64 in the data's type. */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_FN(cosh_grad, ic_noattrs, g * sinhf(u), g * sinh(u))

IC_ACTGRAD_RUN(cosh_grad, ic_noattrs, 1, cosh_grad_f32, cosh_grad_f64)

const ic_opdef ic_op_cosh_grad =
    IC_ACTGRAD_DEF(cosh_grad, ic_noattrs, NULL, ic_actgrad_inputs_x);
