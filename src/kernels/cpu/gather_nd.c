/* gather_nd: Index (int32/int64) of dims [..., k] with k <= rank(X) picks X's slices
 * X[i0, ..., ik-1, :]: Out's dims are Index's without the last followed by X's dims from k on
 * (paddle/phi/kernels/funcs/gather.h CPUGatherNd, GatherNdInferMeta). Every index must lie in
 * [0, dim) as Paddle's CPU kernel enforces. */
#include <string.h>

#include "kernels/cpu/gather_nd.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Index", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

ic_status ic_gather_nd_out_dims(ic_kctx *c, int64_t d[IC_MAX_RANK], int *n) {
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0);
  if (idx->ndim < 1) return ic_kfail_in(c, 1, 0, "expected rank >= 1");
  int64_t k = idx->dims[idx->ndim - 1];
  if (k > x->ndim) {
    return ic_kfail_in(c, 1, 0, "last dim %lld exceeds the rank %d of X '%s'", (long long)k,
                       x->ndim, ic_in_name(c, 0, 0));
  }
  int R = idx->ndim - 1 + x->ndim - (int)k;
  if (R > IC_MAX_RANK) return ic_kfail_in(c, 1, 0, "the output exceeds the rank limit");
  *n = 0;
  for (int i = 0; i < idx->ndim - 1; i++) d[(*n)++] = idx->dims[i];
  for (int i = (int)k; i < x->ndim; i++) d[(*n)++] = x->dims[i];
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT);
  if (st) return st;
  int64_t d[IC_MAX_RANK];
  int n;
  if ((st = ic_gather_nd_out_dims(c, d, &n))) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, n, d);
  return IC_OK;
}

ic_status ic_gather_nd_row(ic_kctx *c, const ic_tensor *x, const ic_tensor *idx, int64_t r,
                           int64_t *off) {
  const int k = (int)idx->dims[idx->ndim - 1];
  *off = 0;
  for (int j = 0; j < k; j++) {
    int64_t v = ic_read_i64(idx, r * k + j);
    if (v < 0 || v >= x->dims[j]) {
      return ic_kfail_in(c, 1, 0, "holds %lld for dim %d at row %lld, expected in [0, %lld)",
                         (long long)v, j, (long long)r, (long long)x->dims[j]);
    }
    *off = *off * x->dims[j] + v;
  }
  return IC_OK;
}

static ic_status gather_nd_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int k = (int)idx->dims[idx->ndim - 1];
  int64_t rows = ic_numel(idx->ndim - 1, idx->dims);
  size_t es = ic_dtype_size(x->dtype);
  size_t slice = (size_t)ic_numel(x->ndim - k, x->dims + k) * es;
  const char *xp = x->data;
  char *op = o->data;
  for (int64_t r = 0; r < rows; r++) {
    int64_t off;
    ic_status st = ic_gather_nd_row(c, x, idx, r, &off);
    if (st) return st;
    memcpy(op + (size_t)r * slice, xp + (size_t)off * slice, slice);
  }
  return IC_OK;
}

const ic_opdef ic_op_gather_nd = {
    .name = "gather_nd", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = gather_nd_cpu,
};
