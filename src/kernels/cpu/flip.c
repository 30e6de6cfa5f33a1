/* flip: Out = X reversed along each axis of `axis` (in [-rank, rank), no axis twice; none: a
 * copy), any dtype (paddle/phi/kernels/cpu/flip_kernel.cc, FlipInferMeta). reverse runs on the
 * same infer and kernel, with repeats allowed (ic_flip_attrs). */
#include "kernels/cpu/shapeops.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_flip_attrs *a = attrs;
  ic_ar_ints(r, "axis", true, &a->axis, &a->n_axis);
  a->repeats = false;
  return r->st;
}

/* The axes as a bit mask, or an error naming the attribute. */
static ic_status flip_mask(ic_kctx *c, unsigned *mask) {
  const ic_flip_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  *mask = 0;
  for (size_t k = 0; k < a->n_axis; k++) {
    int ax = ic_shapeops_axis(c, 0, a->axis[k], x->ndim, "attribute 'axis'");
    if (ax < 0) return IC_ERR_SHAPE;
    if ((*mask & (1u << ax)) && !a->repeats) {
      return ic_kfail_in(c, 0, 0, "attribute 'axis' names axis %d twice", ax);
    }
    *mask |= 1u << ax;
  }
  return IC_OK;
}

ic_status ic_flip_infer(ic_kctx *c) {
  unsigned mask;
  ic_status st = flip_mask(c, &mask);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_flip_run(ic_kctx *c) {
  unsigned mask;
  ic_status st = flip_mask(c, &mask);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_shapeops_flip(ic_out(c, 0, 0)->data, x->data, ic_dtype_size(x->dtype), x->ndim, x->dims,
                   mask);
  return IC_OK;
}

const ic_opdef ic_op_flip = {
    .name = "flip", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(ic_flip_attrs), .parse = parse, .infer = ic_flip_infer,
    .cpu = ic_flip_run,
};
