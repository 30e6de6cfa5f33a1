/* stack_grad: X@GRAD[i] = Y@GRAD's slice i along `axis` (the stacked dim), any dtype: the
 * inverse of stack's copy (phi StackGradKernel). Inputs X (meta only, as Paddle's op lists
 * it) and Y@GRAD; one X@GRAD per stacked input. */
#include "kernels/cpu/shapeops.h"

typedef struct stack_grad_attrs {
  int64_t axis;
} stack_grad_attrs;

static const ic_slotdef k_inputs[2] = {
    {"X", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}, {"Y@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", IC_SLOT_MULTI}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  stack_grad_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const stack_grad_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 1, 0);
  if (g->ndim < 1) return ic_kfail_in(c, 1, 0, "expected rank >= 1");
  int axis = ic_shapeops_axis(c, 1, a->axis, g->ndim, "attribute 'axis'");
  if (axis < 0) return IC_ERR_SHAPE;
  if ((int64_t)c->out[0].n != g->dims[axis]) {
    return ic_kfail_in(c, 1, 0, "dim %d is %lld, but there are %zu outputs X@GRAD", axis,
                       (long long)g->dims[axis], c->out[0].n);
  }
  int64_t d[IC_MAX_RANK];
  for (int i = 0, k = 0; i < g->ndim; i++) {
    if (i != axis) d[k++] = g->dims[i];
  }
  for (size_t i = 0; i < c->out[0].n; i++) {
    const ic_tensor *x = ic_in(c, 0, i);
    if (x && !ic_dims_equal(x->ndim, x->dims, g->ndim - 1, d)) {
      char s[128];
      return ic_kfail_in(c, 0, i, "expected dims %s (Y@GRAD without dim %d)",
                         ic_dims_str(g->ndim - 1, d, s, sizeof s), axis);
    }
    ic_tensor *o = ic_out(c, 0, i);
    if (o) ic_tensor_set_meta(o, g->dtype, g->ndim - 1, d);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const stack_grad_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 1, 0);
  int axis = (int)(a->axis < 0 ? a->axis + g->ndim : a->axis); /* checked by infer */
  size_t n = c->out[0].n, es = ic_dtype_size(g->dtype);
  size_t outer = (size_t)ic_numel(axis, g->dims);
  size_t inner = (size_t)ic_numel(g->ndim - axis - 1, g->dims + axis + 1) * es;
  for (size_t i = 0; i < n; i++) {
    ic_tensor *o = ic_out(c, 0, i);
    if (!o) continue;
    ic_shapeops_copy_rows(o->data, inner, (const char *)g->data + i * inner, n * inner, outer,
                          inner);
  }
  return IC_OK;
}

const ic_opdef ic_op_stack_grad = {
    .name = "stack_grad", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(stack_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
