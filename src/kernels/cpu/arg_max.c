/* arg_max: the index of the first largest element along an axis (see arg_minmax.c). */
#include "kernels/cpu/arg_minmax.h"

static ic_status run(ic_kctx *c) { return ic_argmm_run(c, true); }

const ic_opdef ic_op_arg_max = IC_ARGMM_DEF("arg_max", run);
