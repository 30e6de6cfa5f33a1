/* expand_v2: Out = X broadcast to a target shape, from (by Paddle's precedence) the input
 * Shape (all its elements), the list expand_shapes_tensor (one element each), or the
 * attribute `shape`. X's dims align with the target's trailing dims; a target entry of -1
 * (or any negative in the leading dims X lacks is an error) keeps X's dim, and X's dim must be
 * 1 or equal to the target (paddle/phi/kernels/impl/expand_kernel_impl.h, ExpandInferMeta). */
#include "kernels/cpu/repeat.h"
#include "kernels/cpu/shapeops.h"

typedef struct expand_v2_attrs {
  const int64_t *shape;
  size_t n_shape;
} expand_v2_attrs;

enum { IN_X, IN_SHAPE, IN_LIST };

static const ic_slotdef k_inputs[3] = {
    {"X", 0},
    {"Shape", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"expand_shapes_tensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  expand_v2_attrs *a = attrs;
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const expand_v2_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  int64_t t[IC_MAX_RANK + 1];
  size_t n = 0;
  ic_status st;
  const char *from = "attribute 'shape'";
  if (ic_in(c, IN_SHAPE, 0)) {
    from = "input Shape";
    st = ic_shapeops_read_ints(c, IN_SHAPE, false, "target shape", t, IC_MAX_RANK + 1, &n);
  } else if (c->in[IN_LIST].n > 0) {
    from = "input expand_shapes_tensor";
    st = ic_shapeops_read_ints(c, IN_LIST, true, "target shape", t, IC_MAX_RANK + 1, &n);
  } else {
    st = IC_OK;
    n = a->n_shape;
    if (n > IC_MAX_RANK) n = IC_MAX_RANK + 1;
    for (size_t i = 0; i < n && i < a->n_shape; i++) t[i] = a->shape[i];
  }
  if (st) return st;
  if (n > IC_MAX_RANK || (int)n < x->ndim) {
    return ic_kfail_in(c, IN_X, 0, "cannot expand to %zu dims (%s), expected %d to %d", n, from,
                       x->ndim, IC_MAX_RANK);
  }
  int R = (int)n, off = R - x->ndim;
  int64_t od[IC_MAX_RANK];
  for (int i = 0; i < R; i++) {
    int64_t xd = i >= off ? x->dims[i - off] : 1;
    if (t[i] == -1 && i >= off) {
      od[i] = xd;
    } else if (t[i] < 0 || (xd != 1 && xd != t[i])) {
      return ic_kfail_in(c, IN_X, 0, "cannot expand to %lld at dim %d (%s)%s",
                         (long long)t[i], i, from,
                         t[i] < 0 ? ": -1 only keeps an existing dim" : "");
    } else {
      od[i] = t[i];
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, R, od);
  return IC_OK;
}

static ic_status expand_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t xd[IC_MAX_RANK];
  int off = o->ndim - x->ndim;
  for (int i = 0; i < o->ndim; i++) xd[i] = i >= off ? x->dims[i - off] : 1;
  ic_repeat_copy(o->data, o->dims, x->data, xd, o->ndim, ic_dtype_size(x->dtype));
  return IC_OK;
}

const ic_opdef ic_op_expand_v2 = {
    .name = "expand_v2", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(expand_v2_attrs), .parse = parse,
    .infer = infer, .cpu = expand_cpu,
};
