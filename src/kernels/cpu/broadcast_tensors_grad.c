/* broadcast_tensors_grad: for broadcast_tensors (N inputs broadcast numpy-style to one shape,
 * N outputs of it), X[k]@GRAD = Out[k]@GRAD summed over the dims X[k] was broadcast along
 * (leading dims it lacks and its dims of 1), in double (phi BroadcastTensorsGradKernel).
 * Inputs X (N, meta only), Out@GRAD (N); output X@GRAD (N; an entry may be absent). Float32
 * and float64. */
#include "kernels/cpu/kgrad.h"

static const ic_slotdef k_inputs[2] = {{"X", IC_SLOT_MULTI | IC_SLOT_NO_BUFFER},
                                       {"Out@GRAD", IC_SLOT_MULTI}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", IC_SLOT_MULTI | IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  const size_t n = c->in[0].n;
  if (c->in[1].n != n || c->out[0].n > n) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "broadcast_tensors_grad: X holds %zu variables, "
                    "Out@GRAD %zu and X@GRAD %zu: expected one Out@GRAD per X and at most one "
                    "X@GRAD per X", n, c->in[1].n, c->out[0].n);
  }
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_FLOAT);
  if (st) return st;
  /* the broadcast shape */
  int r = 0;
  int64_t d[IC_MAX_RANK];
  for (size_t k = 0; k < n; k++) r = ic_in(c, 0, k)->ndim > r ? ic_in(c, 0, k)->ndim : r;
  for (int i = 0; i < r; i++) d[i] = 1;
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *x = ic_in(c, 0, k);
    for (int i = 0; i < x->ndim; i++) {
      const int64_t v = x->dims[i];
      int64_t *o = &d[r - x->ndim + i];
      if (v != 1 && *o != 1 && v != *o) {
        return ic_kfail_in(c, 0, k, "does not broadcast with the others");
      }
      if (v != 1) *o = v;
    }
  }
  const ic_dtype dt = ic_in(c, 1, 0)->dtype;
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *g = ic_in(c, 1, k);
    if (g->dtype != dt || !ic_dims_equal(g->ndim, g->dims, r, d)) {
      char s[128];
      return ic_kfail_in(c, 1, k, "expected %s%s (the broadcast shape)", ic_dtype_name(dt),
                         ic_dims_str(r, d, s, sizeof s));
    }
  }
  for (size_t k = 0; k < c->out[0].n; k++) {
    ic_tensor *o = ic_out(c, 0, k);
    if (o) ic_tensor_set_meta(o, dt, ic_in(c, 0, k)->ndim, ic_in(c, 0, k)->dims);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  for (size_t k = 0; k < c->out[0].n; k++) {
    ic_tensor *o = ic_out(c, 0, k);
    if (!o) continue;
    const ic_tensor *x = ic_in(c, 0, k), *g = ic_in(c, 1, k);
    const int r = g->ndim;
    int64_t xs[IC_MAX_RANK], pos[IC_MAX_RANK] = {0}, s = 1;
    for (int i = r - 1; i >= 0; i--) {
      const int ix = i - (r - x->ndim);
      const int64_t xd = ix >= 0 ? x->dims[ix] : 1;
      xs[i] = xd == 1 ? 0 : s;
      s *= xd;
    }
    const int64_t nx = ic_tensor_numel_(x), ng = ic_tensor_numel_(g);
    ic_buffer *b = ic_kscratch(c, (size_t)(nx + 1) * sizeof(double));
    if (!b) return c->err->code;
    double *acc = b->data;
    memset(acc, 0, (size_t)nx * sizeof(double));
    for (int64_t i = 0; i < ng; i++) {
      int64_t at = 0;
      for (int j = 0; j < r; j++) at += pos[j] * xs[j];
      acc[at] += kg_get(g, i);
      for (int j = r - 1; j >= 0 && ++pos[j] == g->dims[j]; j--) pos[j] = 0;
    }
    ic_store_acc(o, acc);
    ic_buffer_release(b);
  }
  return IC_OK;
}

const ic_opdef ic_op_broadcast_tensors_grad = {
    .name = "broadcast_tensors_grad", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
