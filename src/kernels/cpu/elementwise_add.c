/* elementwise_add: Out = X + Y, with Paddle's broadcasting (see elementwise.c);
 * on bool, logical or. */
#include "kernels/cpu/elementwise.h"

static ic_status run(ic_kctx *c) { return ic_elementwise_run(c, IC_EW_ADD); }

const ic_opdef ic_op_elementwise_add = IC_ELEMENTWISE_BOOL_DEF("elementwise_add", run);
