/* mean: Out = the mean of every element of X (phi MeanAllKernel, MeanAllInferMeta).
 * Out has rank 0, as in Paddle >= 2.5 (older versions gave [1]); the mean of an empty X is
 * NaN. Paddle registers this op for floating types only. The sum runs in double; see
 * reduce.c. */
#include "kernels/cpu/reduce.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_reduce_attrs *a = attrs;
  a->kind = IC_REDUCE_MEAN;
  a->reduce_all = true;
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  return st ? st : ic_reduce_infer(c);
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_mean = {
    .name = "mean",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_reduce_attrs), .parse = parse,
    .infer = infer, .cpu = ic_reduce_cpu,
};
