/* gather_grad: X@GRAD = zeros of X's dims with Out@GRAD's slices added at the positions in
 * Index along `axis` (the attribute, or the one-element input Axis): a position gathered
 * twice gets both slices, added in index order in the data's type (phi GatherGradKernel,
 * scatter-add). Inputs X (meta only), Index, Axis (optional), Out@GRAD; float32 and
 * float64. Indices are checked as the forward op checks them. */
#include <string.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/cpu/train.h"

typedef struct gather_grad_attrs {
  int64_t axis; /* first, as ic_gather_axis reads gather's attributes */
} gather_grad_attrs;

enum { IN_X, IN_INDEX, IN_AXIS, IN_DOUT };

/* X, Index and Axis in gather's positions, for ic_gather_axis. */
static const ic_slotdef k_inputs[4] = {{"X", IC_SLOT_NO_BUFFER},
                                       {"Index", 0},
                                       {"Axis", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
                                       {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gather_grad_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT);
  int axis;
  if (st || (st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT)) ||
      (st = ic_gather_axis(c, &axis))) {
    return st;
  }
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_INDEX, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  if (idx->ndim > 2 || (idx->ndim == 2 && idx->dims[1] != 1)) {
    return ic_kfail_in(c, IN_INDEX, 0, "expected rank 0 or 1 (or rank 2 with a last dim of 1)");
  }
  int64_t d[IC_MAX_RANK];
  int R = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (i != axis) d[R++] = x->dims[i];
    else if (idx->ndim > 0) d[R++] = idx->dims[0];
  }
  if (!ic_dims_equal(g->ndim, g->dims, R, d)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected dims %s (gather's Out)",
                       ic_dims_str(R, d, s, sizeof s));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  int axis;
  ic_status st = ic_gather_axis(c, &axis);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_INDEX, 0),
                  *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t n = ic_numel(idx->ndim, idx->dims), dim = x->dims[axis];
  for (int64_t k = 0; k < n; k++) {
    int64_t v = ic_read_i64(idx, k);
    if (v < 0 || v >= dim) {
      return ic_kfail_in(c, IN_INDEX, 0, "holds %lld at position %lld, expected in [0, %lld)",
                         (long long)v, (long long)k, (long long)dim);
    }
  }
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
  int64_t outer = ic_numel(axis, x->dims), inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t k = 0; k < n; k++) {
      ic_train_row_add(dx->dtype, dx->data, r * dim + ic_read_i64(idx, k), g->data, r * n + k,
                       inner);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_gather_grad = {
    .name = "gather_grad", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(gather_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
