/* sequence_reshape_grad: the gradient of sequence_reshape (Paddle's SequenceReshapeGradKernel;
 * its grad maker emits X, Out@GRAD -> X@GRAD, with new_dim). The forward only regrouped X's
 * elements into rows of new_dim: X@GRAD is Out@GRAD's elements with X's dims and LoD.
 * Out@GRAD is [X's elements / new_dim, new_dim] of X's dtype. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_DOUT };

typedef struct reshape_attrs {
  int64_t new_dim;
} reshape_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  reshape_attrs *a = attrs;
  a->new_dim = ic_ar_int_req(r, "new_dim");
  if (r->st) return r->st;
  if (a->new_dim <= 0) return ic_ar_fail(r, "new_dim", "is %lld, expected > 0", (long long)a->new_dim);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const reshape_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [rows, width]");
  size_t ns;
  if (!ic_kseq(c, IN_X, 0, 0, &ns)) return c->err->code;
  const int64_t n = ic_tensor_numel_(x);
  const int64_t d[2] = {n / a->new_dim, a->new_dim};
  if (n % a->new_dim || g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 2, d)) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s[%lld, %lld] (X's %lld elements in rows of "
                       "new_dim)", ic_dtype_name(x->dtype), (long long)d[0], (long long)d[1],
                       (long long)n);
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  return ic_kset_lod(c, dx, ic_lod_clone(x->lod), true);
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  memcpy(dx->data, g->data, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  return IC_OK;
}

/* X's data is never read, but its LoD is: it stays alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_sequence_reshape_grad = {
    .name = "sequence_reshape_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(reshape_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
