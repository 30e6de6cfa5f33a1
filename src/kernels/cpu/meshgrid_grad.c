/* meshgrid_grad: for meshgrid (N 1-D inputs X[k] of n_k values, or 0-D as one; N outputs of
 * dims [n_0, ..., n_{N-1}], Out[k] varying along dim k), X[k]@GRAD[i] = the sum of
 * Out[k]@GRAD over every dim but k at coordinate i (phi MeshgridGradKernel), summed in
 * double. Inputs X (N, meta only), Out@GRAD (N); output X@GRAD (N; an entry may be absent).
 * Float32 and float64. */
#include "kernels/cpu/kgrad.h"

static const ic_slotdef k_inputs[2] = {{"X", IC_SLOT_MULTI | IC_SLOT_NO_BUFFER},
                                       {"Out@GRAD", IC_SLOT_MULTI}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  const size_t n = c->in[0].n;
  if (n < 1 || n > IC_MAX_RANK) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "meshgrid_grad: input X holds %zu variables, "
                    "expected 1 to %d", n, IC_MAX_RANK);
  }
  if (c->in[1].n != n) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "meshgrid_grad: input Out@GRAD holds %zu "
                    "variables, expected one per X (%zu)", c->in[1].n, n);
  }
  if (c->out[0].n > n) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "meshgrid_grad: output X@GRAD holds %zu "
                    "variables, expected at most one per X (%zu)", c->out[0].n, n);
  }
  int64_t d[IC_MAX_RANK];
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *x = ic_in(c, 0, k);
    if (x->ndim > 1) return ic_kfail_in(c, 0, k, "expected rank 0 or 1");
    d[k] = x->ndim ? x->dims[0] : 1;
  }
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_dtype dt = ic_in(c, 1, 0)->dtype;
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *g = ic_in(c, 1, k);
    if (g->dtype != dt || !ic_dims_equal(g->ndim, g->dims, (int)n, d)) {
      char s[128];
      return ic_kfail_in(c, 1, k, "expected %s%s (meshgrid's Out)", ic_dtype_name(dt),
                         ic_dims_str((int)n, d, s, sizeof s));
    }
  }
  for (size_t k = 0; k < c->out[0].n; k++) {
    ic_tensor *o = ic_out(c, 0, k);
    const ic_tensor *x = ic_in(c, 0, k);
    if (o) ic_tensor_set_meta(o, dt, x->ndim, x->dims);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const size_t n = c->in[0].n;
  const ic_tensor *g0 = ic_in(c, 1, 0);
  const int64_t total = ic_tensor_numel_(g0);
  for (size_t k = 0; k < c->out[0].n; k++) {
    ic_tensor *o = ic_out(c, 0, k);
    if (!o) continue;
    const ic_tensor *g = ic_in(c, 1, k);
    const int64_t nk = g->dims[k], inner = ic_numel((int)(n - k - 1), g->dims + k + 1);
    ic_buffer *b = ic_kscratch(c, (size_t)(nk + 1) * sizeof(double));
    if (!b) return c->err->code;
    double *acc = b->data;
    memset(acc, 0, (size_t)nk * sizeof(double));
    for (int64_t i = 0; i < total; i++) acc[(i / inner) % nk] += kg_get(g, i);
    ic_store_acc(o, acc);
    ic_buffer_release(b);
  }
  return IC_OK;
}

const ic_opdef ic_op_meshgrid_grad = {
    .name = "meshgrid_grad", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
