/* reduce_prod_grad: X@GRAD = Out@GRAD * Out * (1 / X), NaN where X is 0, as Paddle 3.3.1's
 * CPU kernel gives. Inputs X, Out, Out@GRAD; the reduce_* attributes (dim, keep_dim,
 * reduce_all). The op is checked against Paddle 3.3.1's gradients (tests/data/grad_oracle),
 * not by central differences of reduce_prod.c. */
#include "kernels/cpu/reduce.h"
#include "kernels/cpu/train.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_MAX);
}

static ic_status run(ic_kctx *c) { return ic_reduce_sel_grad_run(c, true); }

const ic_opdef ic_op_reduce_prod_grad = IC_REDUCE_SEL_GRAD_DEF("reduce_prod_grad", parse, run);
