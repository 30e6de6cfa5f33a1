/* logical_xor: Out = X xor Y as bool (nonzero is true), X and Y of any numeric or bool dtype,
 * broadcast with trailing alignment (see compare.c). */
#include "kernels/cpu/compare.h"

static ic_status run(ic_kctx *c) { return ic_compare_run(c, IC_LOGIC_XOR); }

const ic_opdef ic_op_logical_xor = IC_LOGICAL_DEF("logical_xor", run);
