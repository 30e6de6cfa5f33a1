/* median (Paddle 3's pd_op.median, paddle.median): the median over `axis`, a NaN making its
 * row's median NaN (medianutil.c). The legacy ProgramDesc has no such op: Paddle 2.x wrote
 * paddle.median as a sort and a gather; icore names it for the PIR translation. */
#include "kernels/cpu/medianutil.h"

static ic_status run(ic_kctx *c) { return ic_median_run(c, false); }

const ic_opdef ic_op_median = {
    .name = "median", .n_inputs = 1, .inputs = ic_median_inputs, .n_outputs = 2,
    .outputs = ic_median_outputs, .attrs_size = sizeof(ic_median_attrs),
    .parse = ic_median_parse, .infer = ic_median_infer, .cpu = run,
};
