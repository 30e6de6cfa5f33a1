/* unstack_grad: X@GRAD = the Y@GRAD[i] stacked along `axis`, any dtype: the inverse of
 * unstack's copy (phi UnStackGradKernel). Paddle fills the Y@GRAD of unused outputs with
 * zeros (fill_any_like) before it, so every Y@GRAD is present. */
#include "kernels/cpu/shapeops.h"

typedef struct unstack_grad_attrs {
  int64_t axis, num;
} unstack_grad_attrs;

static const ic_slotdef k_inputs[1] = {{"Y@GRAD", IC_SLOT_MULTI}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  unstack_grad_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  a->num = ic_ar_int(r, "num", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const unstack_grad_attrs *a = c->attrs;
  const ic_tensor *g0 = ic_in(c, 0, 0);
  size_t n = c->in[0].n;
  for (size_t i = 1; i < n; i++) {
    const ic_tensor *gi = ic_in(c, 0, i);
    if (gi->dtype != g0->dtype || !ic_dims_equal(gi->ndim, gi->dims, g0->ndim, g0->dims)) {
      return ic_kfail_in(c, 0, i, "expected the dtype and dims of Y@GRAD[0] '%s'",
                         ic_in_name(c, 0, 0));
    }
  }
  if (a->num > 0 && (size_t)a->num != n) {
    return ic_kfail_in(c, 0, 0, "attribute num is %lld, but there are %zu inputs Y@GRAD",
                       (long long)a->num, n);
  }
  if (g0->ndim + 1 > IC_MAX_RANK) return ic_kfail_in(c, 0, 0, "stacking exceeds the rank limit");
  int axis = ic_shapeops_axis(c, 0, a->axis, g0->ndim + 1, "attribute 'axis'");
  if (axis < 0) return IC_ERR_SHAPE;
  int64_t d[IC_MAX_RANK];
  for (int i = 0, k = 0; i <= g0->ndim; i++) d[i] = i == axis ? (int64_t)n : g0->dims[k++];
  ic_tensor_set_meta(ic_out(c, 0, 0), g0->dtype, g0->ndim + 1, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const unstack_grad_attrs *a = c->attrs;
  ic_tensor *dx = ic_out(c, 0, 0);
  const ic_tensor *g0 = ic_in(c, 0, 0);
  size_t n = c->in[0].n, es = ic_dtype_size(g0->dtype);
  int axis = (int)(a->axis < 0 ? a->axis + g0->ndim + 1 : a->axis); /* checked by infer */
  size_t outer = (size_t)ic_numel(axis, g0->dims);
  size_t inner = (size_t)ic_numel(g0->ndim - axis, g0->dims + axis) * es;
  for (size_t i = 0; i < n; i++) {
    ic_shapeops_copy_rows((char *)dx->data + i * inner, n * inner, ic_in(c, 0, i)->data, inner,
                          outer, inner);
  }
  return IC_OK;
}

const ic_opdef ic_op_unstack_grad = {
    .name = "unstack_grad", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(unstack_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
