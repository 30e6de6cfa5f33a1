/* dot_grad: for Out[b] = sum_i X[b, i] Y[b, i] (dot: X and Y both [N], Out a scalar, or both
 * [B, N], Out [B]), X@GRAD[b, i] = Out@GRAD[b] Y[b, i] and Y@GRAD[b, i] = Out@GRAD[b] X[b, i]
 * (phi DotGradKernel), each optional. Out@GRAD may carry the batch as [B], [B, 1] or, for
 * 1-D inputs, [] or [1]: only its element count (B, or 1) is checked. Float32 and float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_Y, IN_DOUT };
static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Y", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Y@GRAD", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (x->ndim != 1 && x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 1 or 2");
  if ((st = kg_expect(c, IN_Y, x->dtype, x->ndim, x->dims, "X's"))) return st;
  const int64_t B = x->ndim == 2 ? x->dims[0] : 1;
  if (g->dtype != x->dtype || ic_tensor_numel_(g) != B) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s with %lld element(s) (dot's Out)",
                       ic_dtype_name(x->dtype), (long long)B);
  }
  kg_out(c, 0, x->dtype, x->ndim, x->dims);
  kg_out(c, 1, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  const int64_t N = x->dims[x->ndim - 1], B = ic_tensor_numel_(g);
  for (int64_t b = 0; b < B; b++) {
    const double gb = kg_get(g, b);
    for (int64_t i = b * N; i < (b + 1) * N; i++) {
      if (dx) kg_put(dx, i, gb * kg_get(y, i));
      if (dy) kg_put(dy, i, gb * kg_get(x, i));
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_dot_grad = {
    .name = "dot_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
