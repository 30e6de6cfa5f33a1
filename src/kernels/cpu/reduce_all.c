/* reduce_all: Out (bool) = whether every element of X over the axes in `dim` is nonzero
 * (phi AllRawKernel); X bool or numeric (NaN counts as nonzero); an empty reduction gives
 * true.
 * Attributes, shapes, dtypes and numerics are shared with the other reductions; see
 * reduce.c. */
#include "kernels/cpu/reduce.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_ALL);
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_reduce_all = {
    .name = "reduce_all",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_reduce_attrs), .parse = parse,
    .infer = ic_reduce_infer, .cpu = ic_reduce_cpu,
};
