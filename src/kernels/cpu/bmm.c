/* bmm: Out[b] = X[b] x Y[b] for X [B, M, K] and Y [B, K, N] of one float dtype, the batch
 * dims equal (no broadcasting) and X's K equal to Y's (paddle/phi/kernels/impl/bmm_kernel_impl.h,
 * BmmInferMeta); the product is matmul_v2's. */
#include "kernels/cpu/matmul_v2.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  matmul_v2_attrs *a = attrs;
  a->trans_x = a->trans_y = false;
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  if (x->ndim != 3) return ic_kfail_in(c, 0, 0, "expected rank 3 [batch, M, K]");
  if (y->ndim != 3) return ic_kfail_in(c, 1, 0, "expected rank 3 [batch, K, N]");
  if (x->dims[0] != y->dims[0]) {
    return ic_kfail_in(c, 1, 0, "has batch %lld, expected X's %lld (bmm does not broadcast)",
                       (long long)y->dims[0], (long long)x->dims[0]);
  }
  if (x->dims[2] != y->dims[1]) {
    return ic_kfail_in(c, 1, 0, "has %lld rows, expected X's %lld columns",
                       (long long)y->dims[1], (long long)x->dims[2]);
  }
  return ic_matmul_v2_infer(c);
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_bmm = {
    .name = "bmm",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(matmul_v2_attrs), .parse = parse,
    .infer = infer, .cpu = ic_matmul_v2_run,
};
