/* scatter_nd_add_grad: for Out = X with Updates[i...] added at X[Index[i..., :]] (Index
 * [..., k] int32/int64 addressing X's first k dims, scatter_nd_add), X@GRAD = Out@GRAD and
 * Updates@GRAD[i...] = Out@GRAD[Index[i..., :]] (phi ScatterNdAddGradKernel: a gather_nd),
 * each optional. Inputs Index, Updates (meta only: Index's dims but the last, then X's dims
 * from k on), Out@GRAD (X's dims). Float32 and float64. An index outside [-d, d) is an error;
 * a negative one counts from the end. */
#include "kernels/cpu/kgrad.h"

enum { IN_INDEX, IN_UPD, IN_DOUT };
static const ic_slotdef k_inputs[3] = {
    {"Index", 0}, {"Updates", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Updates@GRAD", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *ix = ic_in(c, IN_INDEX, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ix->ndim < 1) return ic_kfail_in(c, IN_INDEX, 0, "expected rank >= 1");
  const int64_t k = ix->dims[ix->ndim - 1];
  if (k > g->ndim) {
    return ic_kfail_in(c, IN_INDEX, 0, "addresses %lld dims, Out@GRAD has %d", (long long)k,
                       g->ndim);
  }
  const int nd = ix->ndim - 1 + g->ndim - (int)k;
  if (nd > IC_MAX_RANK) return ic_kfail_in(c, IN_INDEX, 0, "gives Updates too many dims");
  int64_t d[IC_MAX_RANK];
  memcpy(d, ix->dims, sizeof(int64_t) * (size_t)(ix->ndim - 1));
  memcpy(d + ix->ndim - 1, g->dims + k, sizeof(int64_t) * (size_t)(g->ndim - k));
  if ((st = kg_expect(c, IN_UPD, g->dtype, nd, d, "Index's leading dims, then X's after the "
                      "indexed ones")))
    return st;
  kg_out(c, 0, g->dtype, g->ndim, g->dims);
  kg_out(c, 1, g->dtype, nd, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *ix = ic_in(c, IN_INDEX, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *du = ic_out(c, 1, 0);
  const int k = (int)ix->dims[ix->ndim - 1];
  const int64_t n = k ? ic_tensor_numel_(ix) / k : ic_numel(ix->ndim - 1, ix->dims);
  const int64_t row = ic_numel(g->ndim - k, g->dims + k);
  int64_t st[IC_MAX_RANK];
  int64_t s = 1;
  for (int j = k - 1; j >= 0; j--) {
    st[j] = s * row;
    s *= g->dims[j];
  }
  for (int64_t i = 0; i < n * k; i++) {
    const int64_t v = ic_read_i64(ix, i), d = g->dims[i % k];
    if (v < -d || v >= d) {
      return ic_kfail_in(c, IN_INDEX, 0, "entry %lld is %lld, expected in [%lld, %lld)",
                         (long long)i, (long long)v, (long long)-d, (long long)d);
    }
  }
  if (dx) kg_copy(dx, g);
  if (du) {
    const size_t es = ic_dtype_size(g->dtype);
    for (int64_t i = 0; i < n; i++) {
      int64_t at = 0;
      for (int j = 0; j < k; j++) {
        int64_t v = ic_read_i64(ix, i * k + j);
        if (v < 0) v += g->dims[j];
        at += v * st[j];
      }
      memcpy((char *)du->data + (size_t)(i * row) * es, (const char *)g->data + (size_t)at * es,
             (size_t)row * es);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_scatter_nd_add_grad = {
    .name = "scatter_nd_add_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
