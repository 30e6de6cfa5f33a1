/* logsumexp: Out = log(sum(exp(X))) over the axes in `axis` (phi LogsumexpKernel),
 * float32 or float64, computed as m + log(sum(exp(x - m))) with m the max. Attributes axis
 * (default [0]; empty: every axis), keepdim, reduce_all.
 * Attributes, shapes, dtypes and numerics are shared with the other reductions; see
 * reduce.c. */
#include "kernels/cpu/reduce.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_LOGSUMEXP);
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_logsumexp = {
    .name = "logsumexp",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_reduce_attrs), .parse = parse,
    .infer = ic_reduce_infer, .cpu = ic_reduce_cpu,
};
