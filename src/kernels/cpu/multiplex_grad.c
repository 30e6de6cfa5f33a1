/* multiplex_grad: for Out[i] = X[Ids[i]][i] (multiplex: rows picked from one of N inputs of
 * one shape), X[k]@GRAD = Out@GRAD's rows i with Ids[i] == k, 0 elsewhere (phi
 * MultiplexGradKernel). Inputs Ids ([M, 1] or [M], int32/int64, each in [0, N)), X (N, meta
 * only), Out@GRAD (X's dims); output X@GRAD (N; an entry may be absent). Float32, float64. */
#include "kernels/cpu/kgrad.h"

enum { IN_IDS, IN_X, IN_DOUT };
static const ic_slotdef k_inputs[3] = {
    {"Ids", 0}, {"X", IC_SLOT_MULTI | IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_IDS, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *ids = ic_in(c, IN_IDS, 0), *g = ic_in(c, IN_DOUT, 0);
  const size_t n = c->in[IN_X].n;
  if (c->out[0].n > n) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "multiplex_grad: output X@GRAD holds %zu "
                    "variables, expected at most one per X (%zu)", c->out[0].n, n);
  }
  if (g->ndim < 1) return ic_kfail_in(c, IN_DOUT, 0, "expected rank >= 1");
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *x = ic_in(c, IN_X, k);
    if (!ic_dims_equal(x->ndim, x->dims, g->ndim, g->dims)) {
      return ic_kfail_in(c, IN_X, k, "expected Out@GRAD's dims");
    }
  }
  if (ic_tensor_numel_(ids) != g->dims[0] || ids->ndim > 2 ||
      (ids->ndim == 2 && ids->dims[1] != 1)) {
    return ic_kfail_in(c, IN_IDS, 0, "expected [%lld, 1] (one id per row)", (long long)g->dims[0]);
  }
  for (size_t k = 0; k < c->out[0].n; k++) {
    ic_tensor *o = ic_out(c, 0, k);
    if (o) ic_tensor_set_meta(o, g->dtype, g->ndim, g->dims);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *ids = ic_in(c, IN_IDS, 0), *g = ic_in(c, IN_DOUT, 0);
  const int64_t M = g->dims[0], row = M ? ic_tensor_numel_(g) / M : 0;
  const int64_t n = (int64_t)c->in[IN_X].n;
  for (int64_t i = 0; i < M; i++) {
    const int64_t k = ic_read_i64(ids, i);
    if (k < 0 || k >= n) {
      return ic_kfail_in(c, IN_IDS, 0, "entry %lld is %lld, expected in [0, %lld)", (long long)i,
                         (long long)k, (long long)n);
    }
  }
  const size_t es = ic_dtype_size(g->dtype);
  for (size_t k = 0; k < c->out[0].n; k++) {
    ic_tensor *o = ic_out(c, 0, k);
    if (!o) continue;
    kg_zero(o);
    for (int64_t i = 0; i < M; i++) {
      if (ic_read_i64(ids, i) != (int64_t)k) continue;
      const size_t at = (size_t)(i * row) * es;
      memcpy((char *)o->data + at, (const char *)g->data + at, (size_t)row * es);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_multiplex_grad = {
    .name = "multiplex_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
