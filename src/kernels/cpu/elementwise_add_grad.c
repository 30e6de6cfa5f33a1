/* elementwise_add_grad: the gradients of elementwise_add, dX = dOut, dY = dOut, each summed over
 * the dims its input was broadcast along (train.h). */
#include "kernels/cpu/train.h"

static ic_status run(ic_kctx *c) { return ic_ewgrad_run(c, IC_EW_ADD); }

const ic_opdef ic_op_elementwise_add_grad = IC_EWGRAD_DEF("elementwise_add_grad", ic_ewgrad_inputs_dims,
                                                               run);
