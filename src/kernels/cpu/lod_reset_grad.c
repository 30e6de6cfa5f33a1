/* lod_reset_grad: the gradient of lod_reset (Paddle's LoDResetGradKernel; its grad maker emits
 * X, Out@GRAD -> X@GRAD, X needing no buffer, with target_lod and append). The forward kept
 * X's data and changed only the LoD: X@GRAD is Out@GRAD's values with X's dims and X's LoD
 * (whatever Out@GRAD's LoD is). Out@GRAD must have X's dims. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (!ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected dims %s (X's: lod_reset keeps X's data)",
                       ic_dims_str(x->ndim, x->dims, s, sizeof s));
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, g->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, dx, x->lod ? ic_lod_clone(x->lod) : NULL, x->lod != NULL);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  memcpy(dx->data, g->data, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  return IC_OK;
}

/* X's data is never read, but its LoD is: not NO_BUFFER, so that X (and its LoD) stays alive
 * while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_lod_reset_grad = {
    .name = "lod_reset_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
