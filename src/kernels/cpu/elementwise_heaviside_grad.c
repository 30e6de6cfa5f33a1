/* elementwise_heaviside_grad: the gradients of elementwise_heaviside with Paddle's broadcasting; the
 * rule (ties, NaN) and slots are in ewsel_grad.h. */
#include "kernels/cpu/ewsel_grad.h"

static ic_status run(ic_kctx *c) { return ic_ewsel_run(c, IC_EWSEL_HEAVISIDE); }

const ic_opdef ic_op_elementwise_heaviside_grad = IC_EWSEL_DEF("elementwise_heaviside_grad", run);
