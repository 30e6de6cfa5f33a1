/* elementwise_pow_grad: the gradients of elementwise_pow: X@GRAD = Out@GRAD Y X^(Y - 1),
 * Y@GRAD = Out@GRAD ln(X) X^Y (phi ElementwisePowGradKernel), with Paddle 3.3.1's zeros where
 * the formulas give NaN at X = 0 (train.c); each summed over the dims its input was broadcast
 * along (train.h). Inputs X, Y, Out@GRAD as Paddle writes them (Out is not needed). */
#include "kernels/cpu/train.h"

static ic_status run(ic_kctx *c) { return ic_ewgrad_run(c, IC_EW_POW); }

const ic_opdef ic_op_elementwise_pow_grad =
    IC_EWGRAD_DEF("elementwise_pow_grad", ic_ewgrad_inputs_values, run);
