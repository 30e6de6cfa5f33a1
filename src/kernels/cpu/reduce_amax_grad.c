/* reduce_amax_grad: the elements of X equal to their reduction's max share its gradient
 * equally (phi ReduceAMaxGradKernel: Out@GRAD (X == Out) / count(X == Out)). Inputs X,
 * Out, Out@GRAD; the reduce_* attributes (dim, keep_dim, reduce_all). The rule and its edge
 * cases (ties, NaN) are reduce_max_grad's: see train.h. */
#include "kernels/cpu/reduce.h"
#include "kernels/cpu/train.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_AMAX);
}

static ic_status run(ic_kctx *c) { return ic_reduce_sel_grad_run(c, false); }

const ic_opdef ic_op_reduce_amax_grad = IC_REDUCE_SEL_GRAD_DEF("reduce_amax_grad", parse, run);
