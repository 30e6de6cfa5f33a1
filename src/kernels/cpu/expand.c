/* expand (v1): Out = X repeated expand_times[i] times along each dim i, the counts from (by
 * Paddle's precedence) the input ExpandTimes (all its elements), the list
 * expand_times_tensor (one element each), or the attribute `expand_times`; one count per dim
 * of X, each >= 1 (paddle/fluid/operators/expand_op.h). */
#include "kernels/cpu/repeat.h"
#include "kernels/cpu/shapeops.h"

typedef struct expand_attrs {
  const int64_t *times;
  size_t n_times;
} expand_attrs;

enum { IN_X, IN_TIMES, IN_LIST };

static const ic_slotdef k_inputs[3] = {
    {"X", 0},
    {"ExpandTimes", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"expand_times_tensor", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  expand_attrs *a = attrs;
  ic_ar_ints(r, "expand_times", false, &a->times, &a->n_times);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const expand_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  int64_t t[IC_MAX_RANK + 1];
  size_t n = 0;
  ic_status st = IC_OK;
  const char *from = "attribute 'expand_times'";
  if (ic_in(c, IN_TIMES, 0)) {
    from = "input ExpandTimes";
    st = ic_shapeops_read_ints(c, IN_TIMES, false, "expand times", t, IC_MAX_RANK + 1, &n);
  } else if (c->in[IN_LIST].n > 0) {
    from = "input expand_times_tensor";
    st = ic_shapeops_read_ints(c, IN_LIST, true, "expand times", t, IC_MAX_RANK + 1, &n);
  } else {
    n = a->n_times > IC_MAX_RANK ? IC_MAX_RANK + 1 : a->n_times;
    for (size_t i = 0; i < n && i < a->n_times; i++) t[i] = a->times[i];
  }
  if (st) return st;
  if ((int)n != x->ndim) {
    return ic_kfail_in(c, IN_X, 0, "got %zu expand times (%s), expected one per dim", n, from);
  }
  int64_t od[IC_MAX_RANK];
  for (int i = 0; i < x->ndim; i++) {
    if (t[i] < 1) {
      return ic_kfail_in(c, IN_X, 0, "expand times %lld at dim %d (%s), expected >= 1",
                         (long long)t[i], i, from);
    }
    od[i] = x->dims[i] * t[i];
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, od);
  return IC_OK;
}

static ic_status expand_cpu(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  ic_repeat_copy(o->data, o->dims, x->data, x->dims, x->ndim, ic_dtype_size(x->dtype));
  return IC_OK;
}

const ic_opdef ic_op_expand = {
    .name = "expand", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(expand_attrs), .parse = parse, .infer = infer, .cpu = expand_cpu,
};
