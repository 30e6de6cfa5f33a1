/* reduce_min_grad: the elements of X equal to their reduction's min share its gradient
 * equally. Inputs X, Out, Out@GRAD; the reduce_* attributes (dim, keep_dim, reduce_all).
 * See train.h for the rule and its edge cases. The op is checked against Paddle 3.3.1's
 * gradients (tests/data/grad_oracle), not by central differences of reduce_min.c. */
#include "kernels/cpu/reduce.h"
#include "kernels/cpu/train.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_MAX);
}

static ic_status run(ic_kctx *c) { return ic_reduce_sel_grad_run(c, false); }

const ic_opdef ic_op_reduce_min_grad = IC_REDUCE_SEL_GRAD_DEF("reduce_min_grad", parse, run);
