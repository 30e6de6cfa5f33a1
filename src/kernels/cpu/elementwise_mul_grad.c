/* elementwise_mul_grad: the gradients of elementwise_mul, dX = dOut * Y, dY = dOut * X, each summed over
 * the dims its input was broadcast along (train.h). */
#include "kernels/cpu/train.h"

static ic_status run(ic_kctx *c) { return ic_ewgrad_run(c, IC_EW_MUL); }

const ic_opdef ic_op_elementwise_mul_grad = IC_EWGRAD_DEF("elementwise_mul_grad", ic_ewgrad_inputs_values,
                                                               run);
