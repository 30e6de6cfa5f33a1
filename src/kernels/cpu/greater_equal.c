/* greater_equal: Out = X >= Y elementwise as bool, with Paddle's broadcasting and `axis` (see
 * compare.c). */
#include "kernels/cpu/compare.h"

static ic_status run(ic_kctx *c) { return ic_compare_run(c, IC_CMP_GE); }

const ic_opdef ic_op_greater_equal = IC_COMPARE_DEF("greater_equal", run);
