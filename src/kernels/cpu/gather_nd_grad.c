/* gather_nd_grad: X@GRAD = zeros of X's dims with each row of Out@GRAD added at the slice
 * X[i0, ..., ik-1, :] its Index row names: a slice gathered twice gets both, added in row
 * order in the data's type (phi GatherNdGradKernel, scatter_nd_add). Inputs X (meta only),
 * Index, Out@GRAD; float32 and float64. Indices are checked as the forward op checks them. */
#include <string.h>

#include "kernels/cpu/gather_nd.h"
#include "kernels/cpu/train.h"

static const ic_slotdef k_inputs[3] = {{"X", IC_SLOT_NO_BUFFER}, {"Index", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, 2, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 2, 0);
  int64_t d[IC_MAX_RANK];
  int n;
  if ((st = ic_gather_nd_out_dims(c, d, &n))) return st;
  if (!ic_dims_equal(g->ndim, g->dims, n, d)) {
    char s[128];
    return ic_kfail_in(c, 2, 0, "expected dims %s (gather_nd's Out)",
                       ic_dims_str(n, d, s, sizeof s));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int k = (int)idx->dims[idx->ndim - 1];
  int64_t rows = ic_numel(idx->ndim - 1, idx->dims);
  int64_t slice = ic_numel(x->ndim - k, x->dims + k);
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  for (int64_t r = 0; r < rows; r++) {
    int64_t off;
    ic_status st = ic_gather_nd_row(c, x, idx, r, &off);
    if (st) return st;
    ic_train_row_add(dx->dtype, dx->data, off, g->data, r, slice);
  }
  return IC_OK;
}

const ic_opdef ic_op_gather_nd_grad = {
    .name = "gather_nd_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
