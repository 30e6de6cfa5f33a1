/* expand_as_v2: Out = X broadcast to the dims of input Y when given (only its dims are read),
 * else to the attribute `target_shape`. X's dims align with the target's trailing dims and
 * must each be 1 or equal (paddle/phi/kernels/impl/expand_as_kernel_impl.h). */
#include "kernels/cpu/repeat.h"
#include "kernels/cpu/shapeops.h"

typedef struct expand_as_attrs {
  const int64_t *shape;
  size_t n_shape;
} expand_as_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  expand_as_attrs *a = attrs;
  ic_ar_ints(r, "target_shape", false, &a->shape, &a->n_shape);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const expand_as_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  size_t n = y ? (size_t)y->ndim : a->n_shape;
  const int64_t *t = y ? y->dims : a->shape;
  const char *from = y ? "input Y" : "attribute 'target_shape'";
  if (n > IC_MAX_RANK || (int)n < x->ndim) {
    return ic_kfail_in(c, 0, 0, "cannot expand to %zu dims (%s), expected %d to %d", n, from,
                       x->ndim, IC_MAX_RANK);
  }
  int R = (int)n, off = R - x->ndim;
  for (int i = 0; i < R; i++) {
    int64_t xd = i >= off ? x->dims[i - off] : 1;
    if (t[i] < 0 || (xd != 1 && xd != t[i])) {
      return ic_kfail_in(c, 0, 0, "cannot expand to %lld at dim %d (%s)", (long long)t[i], i,
                         from);
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, R, t);
  return IC_OK;
}

static ic_status expand_as_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t xd[IC_MAX_RANK];
  int off = o->ndim - x->ndim;
  for (int i = 0; i < o->ndim; i++) xd[i] = i >= off ? x->dims[i - off] : 1;
  ic_repeat_copy(o->data, o->dims, x->data, xd, o->ndim, ic_dtype_size(x->dtype));
  return IC_OK;
}

const ic_opdef ic_op_expand_as_v2 = {
    .name = "expand_as_v2", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(expand_as_attrs), .parse = parse,
    .infer = infer, .cpu = expand_as_cpu,
};
