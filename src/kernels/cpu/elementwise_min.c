/* elementwise_min: Out = min(X, Y) with Paddle's broadcasting (see elementwise.c); a NaN
 * operand is the result, X's first. */
#include "kernels/cpu/elementwise.h"

static ic_status run(ic_kctx *c) { return ic_elementwise_run(c, IC_EW_MIN); }

const ic_opdef ic_op_elementwise_min = IC_ELEMENTWISE_DEF("elementwise_min", run);
