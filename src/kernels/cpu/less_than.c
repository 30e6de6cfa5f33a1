/* less_than: Out = X < Y elementwise as bool, with Paddle's broadcasting and `axis` (see
 * compare.c). */
#include "kernels/cpu/compare.h"

static ic_status run(ic_kctx *c) { return ic_compare_run(c, IC_CMP_LT); }

const ic_opdef ic_op_less_than = IC_COMPARE_DEF("less_than", run);
