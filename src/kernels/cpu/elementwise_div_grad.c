/* elementwise_div_grad: the gradients of elementwise_div, dX = dOut / Y, dY = -dOut * Out / Y (Out is the forward result), each summed over
 * the dims its input was broadcast along (train.h). */
#include "kernels/cpu/train.h"

static ic_status run(ic_kctx *c) { return ic_ewgrad_run(c, IC_EW_DIV); }

const ic_opdef ic_op_elementwise_div_grad = IC_EWGRAD_DEF("elementwise_div_grad", ic_ewgrad_inputs_values,
                                                               run);
