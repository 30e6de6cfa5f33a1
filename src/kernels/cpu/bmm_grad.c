/* bmm_grad: for Out = X Y with X [B, M, K], Y [B, K, N] (bmm), X@GRAD = Out@GRAD Y^T and
 * Y@GRAD = X^T Out@GRAD per batch (phi BmmGradKernel), each optional. Inputs X, Y, Out@GRAD
 * [B, M, N] of one float dtype; every element is a double sum rounded once. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_Y, IN_DOUT };
static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Y@GRAD", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  if (x->ndim != 3) return ic_kfail_in(c, IN_X, 0, "expected rank 3 [batch, M, K]");
  if (y->dtype != x->dtype || y->ndim != 3 || y->dims[0] != x->dims[0] ||
      y->dims[1] != x->dims[2]) {
    return ic_kfail_in(c, IN_Y, 0, "expected %s[%lld, %lld, N] (X's dtype, batch and K)",
                       ic_dtype_name(x->dtype), (long long)x->dims[0], (long long)x->dims[2]);
  }
  const int64_t d[3] = {x->dims[0], x->dims[1], y->dims[2]};
  if ((st = kg_expect(c, IN_DOUT, x->dtype, 3, d, "bmm's Out"))) return st;
  kg_out(c, 0, x->dtype, 3, x->dims);
  kg_out(c, 1, x->dtype, 3, y->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  const int64_t B = x->dims[0], M = x->dims[1], K = x->dims[2], N = y->dims[2];
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  /* dX[b] (M x K) = G[b] (M x N) Y[b]^T (N x K) */
  if (dx) kg_gemm(dx, B, M, K, N, (kg_mat){g, M * N, N, 1}, (kg_mat){y, K * N, 1, N}, 1.0);
  /* dY[b] (K x N) = X[b]^T (K x M) G[b] (M x N) */
  if (dy) kg_gemm(dy, B, K, N, M, (kg_mat){x, M * K, 1, K}, (kg_mat){g, M * N, N, 1}, 1.0);
  return IC_OK;
}

const ic_opdef ic_op_bmm_grad = {
    .name = "bmm_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
