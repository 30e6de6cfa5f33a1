/* multiplex: X, a list of tensors of one dtype and dims [M, ...]; Ids [M, 1] (int32, as Paddle
 * reads it; each in [0, len(X))); Out [M, ...] takes row i of X[Ids[i]] (paddle/phi/kernels/cpu/
 * multiplex_kernel.cc, MultiplexInferMeta). */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_IDS };
static const ic_slotdef k_inputs[2] = {{"X", IC_SLOT_MULTI}, {"Ids", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  const size_t n = c->in[IN_X].n;
  const ic_tensor *ids = ic_in(c, IN_IDS, 0);
  if (n == 0) return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input X is empty, expected tensors");
  const ic_tensor *x0 = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_IDS, 0, IC_DT(IC_INT32)); /* Paddle reads int32 only */
  if (st) return st;
  if (ids->ndim != 2 || ids->dims[1] != 1) return ic_kfail_in(c, IN_IDS, 0, "expected [M, 1]");
  if (x0->ndim < 1 || x0->dims[0] != ids->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "expected rank >= 1 with dim 0 equal to Ids' (%lld)",
                       (long long)ids->dims[0]);
  }
  for (size_t k = 1; k < n; k++) {
    const ic_tensor *x = ic_in(c, IN_X, k);
    if (x->dtype != x0->dtype || !ic_dims_equal(x->ndim, x->dims, x0->ndim, x0->dims)) {
      char want[96];
      return ic_kfail_in(c, IN_X, k, "expected the dtype and dims of X[0] (%s%s)",
                         ic_dtype_name(x0->dtype),
                         ic_dims_str(x0->ndim, x0->dims, want, sizeof want));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x0->dtype, x0->ndim, x0->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const size_t n = c->in[IN_X].n;
  const ic_tensor *x0 = ic_in(c, IN_X, 0), *ids = ic_in(c, IN_IDS, 0);
  const int64_t rows = x0->dims[0];
  const size_t row = rows ? ic_tensor_numel_(x0) / (size_t)rows * ic_dtype_size(x0->dtype) : 0;
  char *o = ic_out(c, 0, 0)->data;
  for (int64_t i = 0; i < rows; i++) {
    const int64_t k = ic_read_i64(ids, i);
    if (k < 0 || k >= (int64_t)n) {
      return ic_kfail_in(c, IN_IDS, 0, "holds %lld at row %lld, expected in [0, %zu) (the inputs "
                         "of X)", (long long)k, (long long)i, n);
    }
    memcpy(o + (size_t)i * row, (const char *)ic_in(c, IN_X, (size_t)k)->data + (size_t)i * row,
           row);
  }
  return IC_OK;
}

const ic_opdef ic_op_multiplex = {
    .name = "multiplex", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
