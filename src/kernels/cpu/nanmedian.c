/* nanmedian: the median over `axis` with NaNs left out (medianutil.c). */
#include "kernels/cpu/medianutil.h"

static ic_status run(ic_kctx *c) { return ic_median_run(c, true); }

const ic_opdef ic_op_nanmedian = {
    .name = "nanmedian", .n_inputs = 1, .inputs = ic_median_inputs, .n_outputs = 2,
    .outputs = ic_median_outputs, .attrs_size = sizeof(ic_median_attrs),
    .parse = ic_median_parse, .infer = ic_median_infer, .cpu = run,
};
