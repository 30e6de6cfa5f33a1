/* elementwise_div: Out = X / Y with Paddle's broadcasting (see elementwise.c). Integers
 * truncate toward zero, and a zero integer divisor is an error. */
#include "kernels/cpu/elementwise.h"

static ic_status run(ic_kctx *c) { return ic_elementwise_run(c, IC_EW_DIV); }

const ic_opdef ic_op_elementwise_div = IC_ELEMENTWISE_DEF("elementwise_div", run);
