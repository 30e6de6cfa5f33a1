/* fill_any_like: Out = a tensor of X's dims filled with the float attribute `value`
 * (default 0), of `dtype` (default -1: X's dtype), converted as Paddle's static_cast
 * (paddle/phi/kernels/full_kernel.h FullLikeKernel). X's data is not read. */
#include "kernels/cpu/fill.h"

typedef struct fill_any_like_attrs {
  double value;
  ic_dtype dtype;
  bool same;
} fill_any_like_attrs;

static const ic_slotdef k_inputs[1] = {{"X", IC_SLOT_NO_BUFFER}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fill_any_like_attrs *a = attrs;
  a->value = ic_ar_float(r, "value", 0.0);
  a->same = ic_ar_int(r, "dtype", -1) == -1;
  if (!a->same) ic_fill_parse_dtype(r, "dtype", IC_FP32, IC_DT_ANY, &a->dtype);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const fill_any_like_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), a->same ? x->dtype : a->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status fill_any_like_cpu(ic_kctx *c) {
  const fill_any_like_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  ic_fill_scalar v = {false, 0, a->value};
  ic_fill_store(o->data, o->dtype, ic_tensor_numel_(o), v);
  return IC_OK;
}

const ic_opdef ic_op_fill_any_like = {
    .name = "fill_any_like", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(fill_any_like_attrs), .parse = parse,
    .infer = infer, .cpu = fill_any_like_cpu,
};
