/* share_buffer: Out[i] = X[i] and XOut[i] = X[i], each sharing X[i]'s buffer (Paddle's
 * ShareBufferOp, which its memory-reuse passes insert: XOut is X itself in their programs).
 * X's tensors must all have one dtype (Paddle's kernel choice requires it); Out and XOut
 * hold as many tensors as X. Out[i] takes X[i]'s dims and dtype whatever
 * share_dims_and_dtype[i] says: with it false Paddle only hands Out X's memory under Out's
 * previous dims (garbage until an op writes Out), so X's values are the defined answer.
 * Every dtype (paddle/phi/kernels/share_buffer_kernel.cc). */
#include "kernels/kernel.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  (void)attrs;
  const int64_t *v;
  size_t n;
  ic_ar_ints(r, "share_dims_and_dtype", false, &v, &n); /* read to check its type */
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const size_t n = c->in[0].n;
  if (c->out[0].n != n) {
    return ic_kfail(c, IC_ERR_SHAPE, "output Out holds %zu tensors, expected %zu (one per X)",
                    c->out[0].n, n);
  }
  if (c->out[1].n != 0 && c->out[1].n != n) {
    return ic_kfail(c, IC_ERR_SHAPE, "output XOut holds %zu tensors, expected %zu (one per X)",
                    c->out[1].n, n);
  }
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *x = ic_in(c, 0, i);
    if (i > 0 && x->dtype != ic_in(c, 0, 0)->dtype) {
      return ic_kfail_in(c, 0, i, "expected X[0]'s dtype %s (X's tensors share one dtype)",
                         ic_dtype_name(ic_in(c, 0, 0)->dtype));
    }
    ic_tensor_set_meta(ic_out(c, 0, i), x->dtype, x->ndim, x->dims);
    ic_tensor *xo = ic_out(c, 1, i);
    if (xo && xo != x) ic_tensor_set_meta(xo, x->dtype, x->ndim, x->dims);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  for (size_t i = 0; i < c->in[0].n; i++) {
    const ic_tensor *x = ic_in(c, 0, i);
    ic_tensor_share(ic_out(c, 0, i), x);
    ic_tensor *xo = ic_out(c, 1, i);
    if (xo) ic_tensor_share(xo, x);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_MULTI | IC_SLOT_SHARE},
                                     {"XOut", IC_SLOT_MULTI | IC_SLOT_SHARE | IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_share_buffer = {
    .name = "share_buffer", .n_inputs = 1, .inputs = inputs, .n_outputs = 2,
    .outputs = outputs, .parse = parse, .infer = infer, .cpu = run, .flags = IC_OP_VIEW,
};
