/* stack: Y = the inputs X[0..n) (same dtype and dims) joined along a new dim `axis`
 * (default 0, in [-(rank + 1), rank]), as paddle/phi/kernels/cpu/stack_kernel.cc. */
#include <string.h>

#include "kernels/cpu/shapeops.h"

typedef struct stack_attrs {
  int64_t axis;
} stack_attrs;

static const ic_slotdef k_inputs[1] = {{"X", IC_SLOT_MULTI}};
static const ic_slotdef k_outputs[1] = {{"Y", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  stack_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const stack_attrs *a = c->attrs;
  const ic_tensor *x0 = ic_in(c, 0, 0);
  size_t n = c->in[0].n;
  for (size_t i = 1; i < n; i++) {
    const ic_tensor *xi = ic_in(c, 0, i);
    if (xi->dtype != x0->dtype || !ic_dims_equal(xi->ndim, xi->dims, x0->ndim, x0->dims)) {
      return ic_kfail_in(c, 0, i, "expected the dtype and dims of X[0] '%s'",
                         ic_in_name(c, 0, 0));
    }
  }
  if (x0->ndim + 1 > IC_MAX_RANK) return ic_kfail_in(c, 0, 0, "stacking exceeds the rank limit");
  int axis = ic_shapeops_axis(c, 0, a->axis, x0->ndim + 1, "attribute 'axis'");
  if (axis < 0) return IC_ERR_SHAPE;
  int64_t d[IC_MAX_RANK];
  for (int i = 0, k = 0; i <= x0->ndim; i++) d[i] = i == axis ? (int64_t)n : x0->dims[k++];
  ic_tensor_set_meta(ic_out(c, 0, 0), x0->dtype, x0->ndim + 1, d);
  return IC_OK;
}

static ic_status stack_cpu(ic_kctx *c) {
  ic_tensor *y = ic_out(c, 0, 0);
  const ic_tensor *x0 = ic_in(c, 0, 0);
  size_t n = c->in[0].n, es = ic_dtype_size(x0->dtype);
  const stack_attrs *a = c->attrs;
  int axis = (int)(a->axis < 0 ? a->axis + x0->ndim + 1 : a->axis); /* checked by infer */
  size_t outer = (size_t)ic_numel(axis, x0->dims);
  size_t inner = (size_t)ic_numel(x0->ndim - axis, x0->dims + axis) * es;
  for (size_t i = 0; i < n; i++) {
    ic_shapeops_copy_rows((char *)y->data + i * inner, n * inner, ic_in(c, 0, i)->data, inner,
                          outer, inner);
  }
  return IC_OK;
}

const ic_opdef ic_op_stack = {
    .name = "stack", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(stack_attrs), .parse = parse, .infer = infer, .cpu = stack_cpu,
};
