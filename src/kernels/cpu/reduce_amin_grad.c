/* reduce_amin_grad: the elements of X equal to their reduction's min share its gradient
 * equally (phi ReduceAMinGradKernel: Out@GRAD (X == Out) / count(X == Out)). Inputs X,
 * Out, Out@GRAD; the reduce_* attributes (dim, keep_dim, reduce_all). The rule and its edge
 * cases (ties, NaN) are reduce_min_grad's: see train.h. */
#include "kernels/cpu/reduce.h"
#include "kernels/cpu/train.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_AMIN);
}

static ic_status run(ic_kctx *c) { return ic_reduce_sel_grad_run(c, false); }

const ic_opdef ic_op_reduce_amin_grad = IC_REDUCE_SEL_GRAD_DEF("reduce_amin_grad", parse, run);
