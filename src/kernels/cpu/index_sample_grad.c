/* index_sample_grad: for Out[i, j] = X[i, Index[i, j]] (index_sample: X [N, D], Index [N, K]
 * int32/int64), X@GRAD = zeros with Out@GRAD[i, j] added at [i, Index[i, j]], repeated
 * indices accumulating in order in the data's type (phi IndexSampleGradKernel). Inputs X
 * (meta only), Index, Out@GRAD [N, K]; float32 and float64. An index outside [0, D) is an
 * error. */
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_INDEX, IN_DOUT };
static const ic_slotdef k_inputs[3] = {
    {"X", IC_SLOT_NO_BUFFER}, {"Index", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_INDEX, 0), *g = ic_in(c, IN_DOUT, 0);
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [N, D]");
  if (idx->ndim != 2 || idx->dims[0] != x->dims[0]) {
    return ic_kfail_in(c, IN_INDEX, 0, "expected [%lld, K] (X's rows)", (long long)x->dims[0]);
  }
  if ((st = kg_expect(c, IN_DOUT, g->dtype, 2, idx->dims, "Index's, index_sample's Out")))
    return st;
  kg_out(c, 0, g->dtype, 2, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_INDEX, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t N = idx->dims[0], K = idx->dims[1], D = x->dims[1];
  for (int64_t i = 0; i < N * K; i++) {
    const int64_t v = ic_read_i64(idx, i);
    if (v < 0 || v >= D) {
      return ic_kfail_in(c, IN_INDEX, 0, "entry %lld is %lld, expected in [0, %lld)",
                         (long long)i, (long long)v, (long long)D);
    }
  }
  kg_zero(dx);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < K; j++)
      kg_add(dx, i * D + ic_read_i64(idx, i * K + j), kg_get(g, i * K + j));
  return IC_OK;
}

const ic_opdef ic_op_index_sample_grad = {
    .name = "index_sample_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
