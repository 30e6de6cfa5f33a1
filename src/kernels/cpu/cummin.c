/* cummin: the running minimum of X along `axis`, with the index where it was found (cumext.c;
 * paddle/phi/kernels/cpu/cum_maxmin_kernel.cc). */
#include "kernels/cpu/cumext.h"

static ic_status run(ic_kctx *c) { return ic_cumext_run(c, false); }

const ic_opdef ic_op_cummin = {
    .name = "cummin", .n_inputs = 1, .inputs = ic_cumext_inputs, .n_outputs = 2,
    .outputs = ic_cumext_outputs, .attrs_size = sizeof(ic_cumext_attrs),
    .parse = ic_cumext_parse, .infer = ic_cumext_infer, .cpu = run,
};
