/* unstack: Y[0..num) = X's slices along `axis` (default 0), that dim removed; `num` must
 * equal the dim (Paddle writes it; 0 or absent takes the dim) and the number of outputs
 * (paddle/phi/kernels/impl/unstack_kernel_impl.h, UnStackInferMeta). */
#include "kernels/cpu/shapeops.h"

typedef struct unstack_attrs {
  int64_t axis, num;
} unstack_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Y", IC_SLOT_MULTI}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  unstack_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  a->num = ic_ar_int(r, "num", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const unstack_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  int axis = ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'");
  if (axis < 0) return IC_ERR_SHAPE;
  int64_t dim = x->dims[axis];
  if ((a->num > 0 && a->num != dim) || (int64_t)c->out[0].n != dim) {
    return ic_kfail_in(c, 0, 0, "dim %d is %lld, but num is %lld and there are %zu outputs Y",
                       axis, (long long)dim, (long long)a->num, c->out[0].n);
  }
  int64_t d[IC_MAX_RANK];
  for (int i = 0, k = 0; i < x->ndim; i++) {
    if (i != axis) d[k++] = x->dims[i];
  }
  for (size_t i = 0; i < c->out[0].n; i++) {
    ic_tensor_set_meta(ic_out(c, 0, i), x->dtype, x->ndim - 1, d);
  }
  return IC_OK;
}

static ic_status unstack_cpu(ic_kctx *c) {
  const unstack_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  int axis = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  size_t n = c->out[0].n, es = ic_dtype_size(x->dtype);
  size_t outer = (size_t)ic_numel(axis, x->dims);
  size_t inner = (size_t)ic_numel(x->ndim - axis - 1, x->dims + axis + 1) * es;
  for (size_t i = 0; i < n; i++) {
    ic_shapeops_copy_rows(ic_out(c, 0, i)->data, inner, (const char *)x->data + i * inner,
                          n * inner, outer, inner);
  }
  return IC_OK;
}

const ic_opdef ic_op_unstack = {
    .name = "unstack", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(unstack_attrs), .parse = parse, .infer = infer, .cpu = unstack_cpu,
};
