/* flatten2: Out = X as a matrix [prod(dims[:axis]), prod(dims[axis:])] (the same bytes,
 * shared), `axis` (default 1) in [0, rank]; XShape = meta only (paddle/fluid/operators/
 * flatten_op.h, Flatten2Op). fluid's flatten (flatten.c) is the same without XShape. */
#include "kernels/cpu/shapeops.h"

ic_status ic_flatten2_parse(ic_attr_reader *r, void *attrs) {
  flatten2_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 1);
  return r->st;
}

ic_status ic_flatten2_infer(ic_kctx *c) {
  const flatten2_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (a->axis < 0 || a->axis > x->ndim) {
    return ic_kfail_in(c, 0, 0, "attribute 'axis' is %lld, expected in [0, %d]",
                       (long long)a->axis, x->ndim);
  }
  int axis = (int)a->axis;
  int64_t d[2] = {ic_numel(axis, x->dims), ic_numel(x->ndim - axis, x->dims + axis)};
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, d);
  return ic_shapeops_xshape(c, 1, x);
}

static const ic_slotdef k_inputs[] = {{"X", 0}};

const ic_opdef ic_op_flatten2 = {
    .name = "flatten2", .n_inputs = 1, .inputs = k_inputs,
    .n_outputs = 2, .outputs = ic_shapeops_view_outputs,
    .attrs_size = sizeof(flatten2_attrs), .parse = ic_flatten2_parse,
    .infer = ic_flatten2_infer, .cpu = ic_shapeops_view_run,
    .flags = IC_OP_VIEW,
};
