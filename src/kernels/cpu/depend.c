/* depend (Paddle's dependency marker, paddle.base.core.ops.depend / pd_op.depend): Out = X; Dep
 * only orders the op after Dep's producers, which the DAG does from the slot alone. */
#include <string.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (o->data != x->data) memcpy(o->data, x->data, (size_t)ic_tensor_numel_(x) * ic_dtype_size(x->dtype));
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Dep", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_depend = {
    .name = "depend", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
