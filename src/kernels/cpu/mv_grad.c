/* mv_grad: for Out = X Vec with X [M, N], Vec [N] (mv), X@GRAD[i, j] = Out@GRAD[i] Vec[j]
 * and Vec@GRAD = X^T Out@GRAD (phi MvGradKernel), each optional. Inputs X, Vec, Out@GRAD
 * [M] of one float dtype. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_VEC, IN_DOUT };
static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Vec", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Vec@GRAD", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [M, N]");
  if ((st = kg_expect(c, IN_VEC, x->dtype, 1, x->dims + 1, "X's columns"))) return st;
  if ((st = kg_expect(c, IN_DOUT, x->dtype, 1, x->dims, "mv's Out"))) return st;
  kg_out(c, 0, x->dtype, 2, x->dims);
  kg_out(c, 1, x->dtype, 1, x->dims + 1);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *v = ic_in(c, IN_VEC, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dv = ic_out(c, 1, 0);
  const int64_t M = x->dims[0], N = x->dims[1];
  if (dx) {
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) kg_put(dx, i * N + j, kg_get(g, i) * kg_get(v, j));
  }
  if (dv) kg_gemm(dv, 1, N, 1, M, (kg_mat){x, 0, 1, N}, (kg_mat){g, 0, 1, 1}, 1.0);
  return IC_OK;
}

const ic_opdef ic_op_mv_grad = {
    .name = "mv_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
