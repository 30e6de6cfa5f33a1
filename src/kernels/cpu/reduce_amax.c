/* reduce_amax: Out = the largest element of X over the axes in `dim` (phi AMaxRawKernel),
 * in X's dtype; the forward is reduce_max's (NaN wins; amax differs from max only in its
 * gradient), except that an empty reduction gives 0 (Paddle 3.3.1 returns uninitialized
 * memory there).
 * Attributes, shapes, dtypes and numerics are shared with the other reductions; see
 * reduce.c. */
#include "kernels/cpu/reduce.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_AMAX);
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_reduce_amax = {
    .name = "reduce_amax",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_reduce_attrs), .parse = parse,
    .infer = ic_reduce_infer, .cpu = ic_reduce_cpu,
};
