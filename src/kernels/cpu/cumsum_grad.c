/* cumsum_grad: X@GRAD = the cumsum of Out@GRAD in the other direction (`reverse` flipped,
 * `exclusive` kept), with X's dims (Out@GRAD is 1-D under `flatten`), as phi CumsumGradKernel
 * runs the forward kernel; accumulated in the data's type in scan order. Inputs X (meta
 * only) and Out@GRAD; cumsum's attributes; float32 and float64. */
#include "kernels/cpu/cumsum.h"

static const ic_slotdef k_inputs[2] = {{"X", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  const cumsum_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  if (ic_tensor_numel_(g) != ic_numel(x->ndim, x->dims)) {
    return ic_kfail_in(c, 1, 0, "expected %lld elements, those of X",
                       (long long)ic_numel(x->ndim, x->dims));
  }
  if (!a->flatten && !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected X's dims %s", ic_dims_str(x->ndim, x->dims, d, sizeof d));
  }
  if (!a->flatten && x->ndim > 0 &&
      ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'") < 0) {
    return IC_ERR_SHAPE;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const cumsum_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_cumsum_scan(a, x, g->dtype, g->data, ic_out(c, 0, 0)->data, !a->reverse);
  return IC_OK;
}

const ic_opdef ic_op_cumsum_grad = {
    .name = "cumsum_grad", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(cumsum_attrs), .parse = ic_cumsum_parse,
    .infer = infer, .cpu = run,
};
