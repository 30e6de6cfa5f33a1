/* arg_min: the index of the first smallest element along an axis (see arg_minmax.c). */
#include "kernels/cpu/arg_minmax.h"

static ic_status run(ic_kctx *c) { return ic_argmm_run(c, false); }

const ic_opdef ic_op_arg_min = IC_ARGMM_DEF("arg_min", run);
