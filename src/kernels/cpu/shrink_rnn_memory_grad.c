/* shrink_rnn_memory_grad: the gradient of shrink_rnn_memory (Paddle's ShrinkRNNMemoryGradOp;
 * its grad maker emits X, Out@GRAD -> X@GRAD). The forward kept X's first rows: X@GRAD has
 * X's dims and LoD, Out@GRAD in its first rows and zeros below; all zeros when Out@GRAD is
 * absent (no gradient reached the shrunk memory). Out@GRAD has at most X's rows and X's dims
 * after the first. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  if (g) {
    bool ok = g->dtype == x->dtype && g->ndim == x->ndim && g->dims[0] <= x->dims[0];
    for (int i = 1; ok && i < x->ndim; i++) ok = g->dims[i] == x->dims[i];
    if (!ok) {
      char s[128];
      return ic_kfail_in(c, IN_DOUT, 0, "expected %s with at most X's %lld rows and X's dims "
                         "after the first (X is %s)", ic_dtype_name(x->dtype),
                         (long long)x->dims[0], ic_dims_str(x->ndim, x->dims, s, sizeof s));
    }
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, dx, x->lod ? ic_lod_clone(x->lod) : NULL, x->lod != NULL);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const size_t total = (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype);
  const size_t head = g ? (size_t)ic_tensor_numel_(g) * ic_dtype_size(g->dtype) : 0;
  if (head) memcpy(dx->data, g->data, head);
  memset((char *)dx->data + head, 0, total - head);
  return IC_OK;
}

/* X's data is never read, but its LoD is: it stays alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Out@GRAD", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_shrink_rnn_memory_grad = {
    .name = "shrink_rnn_memory_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
