/* meshgrid: for n inputs X[i] of rank 0 or 1 (a 0-D one counts as one element) and one dtype,
 * n outputs Out[i] of dims [numel(X[0]), ..., numel(X[n-1])], Out[i] holding X[i][j] at every
 * index whose i-th coordinate is j ('ij' indexing: paddle/phi/kernels/impl/meshgrid_kernel_impl.h,
 * MeshgridInferMeta). */
#include <string.h>

#include "kernels/cpu/shapeops.h"

static const ic_slotdef k_inputs[1] = {{"X", IC_SLOT_MULTI}};
static const ic_slotdef k_outputs[1] = {{"Out", IC_SLOT_MULTI}};

static ic_status infer(ic_kctx *c) {
  const size_t n = c->in[0].n;
  if (n == 0) return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "expected at least one input X");
  if (c->out[0].n != n) {
    return ic_kfail_in(c, 0, 0, "%zu inputs X but %zu outputs Out, expected as many", n,
                       c->out[0].n);
  }
  if (n > IC_MAX_RANK) return ic_kfail_in(c, 0, 0, "%zu inputs, at most %d", n, IC_MAX_RANK);
  int64_t d[IC_MAX_RANK];
  const ic_tensor *x0 = ic_in(c, 0, 0);
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *x = ic_in(c, 0, i);
    if (x->ndim > 1) return ic_kfail_in(c, 0, i, "has rank %d, expected 0 or 1", x->ndim);
    if (x->dtype != x0->dtype) {
      return ic_kfail_in(c, 0, i, "has dtype %s, expected X[0]'s %s", ic_dtype_name(x->dtype),
                         ic_dtype_name(x0->dtype));
    }
    d[i] = ic_tensor_numel_(x);
  }
  for (size_t i = 0; i < n; i++) ic_tensor_set_meta(ic_out(c, 0, i), x0->dtype, (int)n, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const size_t n = c->in[0].n;
  if (n == 0) return IC_OK; /* refused by infer */
  const size_t es = ic_dtype_size(ic_in(c, 0, 0)->dtype);
  const ic_tensor *o0 = ic_out(c, 0, 0);
  for (size_t i = 0; i < n; i++) {
    const char *x = ic_in(c, 0, i)->data;
    char *o = ic_out(c, 0, i)->data;
    const int64_t len = o0->dims[i];
    const size_t outer = (size_t)ic_numel((int)i, o0->dims);
    const size_t inner = (size_t)ic_numel((int)(n - i - 1), o0->dims + i + 1);
    if (!outer || !inner || !len) continue;
    /* One run of X[i]'s elements, each repeated `inner` times (doubling copies), then that
     * run `outer` times. */
    for (int64_t j = 0; j < len; j++) {
      char *r = o + (size_t)j * inner * es;
      memcpy(r, x + (size_t)j * es, es);
      for (size_t have = 1; have < inner;) {
        size_t k = have < inner - have ? have : inner - have;
        memcpy(r + have * es, r, k * es);
        have += k;
      }
    }
    const size_t run_bytes = (size_t)len * inner * es;
    for (size_t k = 1; k < outer; k++) memcpy(o + k * run_bytes, o, run_bytes);
  }
  return IC_OK;
}

const ic_opdef ic_op_meshgrid = {
    .name = "meshgrid", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
