/* reduce_min: Out = the smallest element of X over the axes in `dim` (phi MinRawKernel),
 * in X's dtype; NaN wins over every number; an empty reduced axis is an error.
 * Attributes, shapes, dtypes and numerics are shared with the other reductions; see
 * reduce.c. */
#include "kernels/cpu/reduce.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_MIN);
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_reduce_min = {
    .name = "reduce_min",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_reduce_attrs), .parse = parse,
    .infer = ic_reduce_infer, .cpu = ic_reduce_cpu,
};
