/* unbind: X split along `axis` (in [-rank, rank)) into its dims[axis] slices, Out[i] the i-th
 * without that axis; the op has one output per slice. Any dtype
 * (paddle/phi/kernels/impl/unbind_kernel_impl.h, UnbindInferMeta). */
#include <string.h>

#include "kernels/cpu/shapeops.h"

typedef struct unbind_attrs {
  int64_t axis;
} unbind_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", IC_SLOT_MULTI}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  unbind_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const unbind_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  int ax = ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'");
  if (ax < 0) return IC_ERR_SHAPE;
  if ((int64_t)c->out[0].n != x->dims[ax]) {
    return ic_kfail_in(c, 0, 0, "has %lld slices along axis %d, but the op has %zu outputs Out, "
                       "expected as many", (long long)x->dims[ax], ax, c->out[0].n);
  }
  int64_t d[IC_MAX_RANK];
  int r = 0;
  for (int k = 0; k < x->ndim; k++) {
    if (k != ax) d[r++] = x->dims[k];
  }
  for (size_t i = 0; i < c->out[0].n; i++) ic_tensor_set_meta(ic_out(c, 0, i), x->dtype, r, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const unbind_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  const int ax = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis); /* checked by infer */
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t n = x->dims[ax];
  const size_t outer = (size_t)ic_numel(ax, x->dims);
  const size_t inner = (size_t)ic_numel(x->ndim - ax - 1, x->dims + ax + 1) * es;
  for (int64_t i = 0; i < n && (size_t)i < c->out[0].n; i++) {
    ic_shapeops_copy_rows(ic_out(c, 0, (size_t)i)->data, inner,
                          (const char *)x->data + (size_t)i * inner, (size_t)n * inner, outer,
                          inner);
  }
  return IC_OK;
}

const ic_opdef ic_op_unbind = {
    .name = "unbind", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(unbind_attrs), .parse = parse, .infer = infer, .cpu = run,
};
