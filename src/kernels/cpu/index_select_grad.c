/* index_select_grad: X@GRAD = zeros of X's dims with Out@GRAD's slices added at the positions
 * in Index along `dim` (a negative index counting from the end, as the forward op): a
 * position selected twice gets both, added in index order in the data's type (phi
 * IndexSelectGradKernel). Inputs X (meta only), Index, Out@GRAD; float32 and float64. */
#include <string.h>

#include "kernels/cpu/index_select.h"
#include "kernels/cpu/train.h"

static const ic_slotdef k_inputs[3] = {{"X", IC_SLOT_NO_BUFFER}, {"Index", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, 2, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 2, 0);
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  int64_t d[IC_MAX_RANK];
  if (ic_index_select_out_dims(c, d) < 0) return c->err->code;
  if (!ic_dims_equal(g->ndim, g->dims, x->ndim, d)) {
    char s[128];
    return ic_kfail_in(c, 2, 0, "expected dims %s (index_select's Out)",
                       ic_dims_str(x->ndim, d, s, sizeof s));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const index_select_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int axis = (int)(a->dim < 0 ? a->dim + x->ndim : a->dim);
  int64_t n = idx->dims[0], dim = x->dims[axis];
  ic_status st = ic_index_select_check(c, x, idx, axis);
  if (st) return st;
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  int64_t outer = ic_numel(axis, x->dims), inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t k = 0; k < n; k++) {
      int64_t v = ic_read_i64(idx, k);
      if (v < 0) v += dim;
      ic_train_row_add(dx->dtype, dx->data, r * dim + v, g->data, r * n + k, inner);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_index_select_grad = {
    .name = "index_select_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(index_select_attrs), .parse = ic_index_select_parse,
    .infer = infer, .cpu = run,
};
