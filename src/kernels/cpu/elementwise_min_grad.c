/* elementwise_min_grad: the gradients of elementwise_min (phi MinimumGradKernel as
 * Paddle 3.3.1 computes it): the smaller of X and Y takes Out@GRAD, a tie gives each side
 * half, a NaN on either side gives neither anything; each summed over the dims its input was
 * broadcast along (train.h). */
#include "kernels/cpu/train.h"

static ic_status run(ic_kctx *c) { return ic_ewgrad_run(c, IC_EW_MIN); }

const ic_opdef ic_op_elementwise_min_grad =
    IC_EWGRAD_DEF("elementwise_min_grad", ic_ewgrad_inputs_values, run);
