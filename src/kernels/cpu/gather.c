/* gather: Out = X's slices at the positions in Index along `axis` (attribute, default 0, or
 * the one-element input Axis when given). Index is int32 or int64, rank 1 (or rank 2 with a
 * last dim of 1: the same), giving X's dims with dim `axis` replaced by the index count, or
 * rank 0, which drops the dim. Every index must lie in [0, dim) as Paddle's CPU kernel
 * enforces (paddle/phi/kernels/funcs/gather.h, GatherInferMeta). */
#include <string.h>

#include "kernels/cpu/shapeops.h"

typedef struct gather_attrs {
  int64_t axis;
} gather_attrs;

enum { IN_X, IN_INDEX, IN_AXIS };

static const ic_slotdef k_inputs[3] = {
    {"X", 0}, {"Index", 0}, {"Axis", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gather_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", 0);
  return r->st;
}

ic_status ic_gather_axis(ic_kctx *c, int *axis) {
  const gather_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  int64_t v = a->axis;
  if (ic_in(c, IN_AXIS, 0)) {
    ic_status st = ic_shapeops_read_scalar(c, IN_AXIS, &v);
    if (st) return st;
  }
  if (x->ndim == 0) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  *axis = ic_shapeops_axis(c, IN_X, v, x->ndim, ic_in(c, IN_AXIS, 0) ? "input Axis" : "axis");
  return *axis < 0 ? IC_ERR_SHAPE : IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_INDEX, 0, IC_DT_INT);
  int axis;
  if (st || (st = ic_gather_axis(c, &axis))) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_INDEX, 0);
  if (idx->ndim > 2 || (idx->ndim == 2 && idx->dims[1] != 1)) {
    return ic_kfail_in(c, IN_INDEX, 0, "expected rank 0 or 1 (or rank 2 with a last dim of 1)");
  }
  int64_t d[IC_MAX_RANK];
  int R = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (i != axis) {
      d[R++] = x->dims[i];
    } else if (idx->ndim > 0) {
      d[R++] = idx->dims[0];
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, R, d);
  return IC_OK;
}

static ic_status gather_cpu(ic_kctx *c) {
  int axis;
  ic_status st = ic_gather_axis(c, &axis);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_INDEX, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_numel(idx->ndim, idx->dims), dim = x->dims[axis];
  for (int64_t k = 0; k < n; k++) {
    int64_t v = ic_read_i64(idx, k);
    if (v < 0 || v >= dim) {
      return ic_kfail_in(c, IN_INDEX, 0, "holds %lld at position %lld, expected in [0, %lld)",
                         (long long)v, (long long)k, (long long)dim);
    }
  }
  size_t es = ic_dtype_size(x->dtype);
  size_t outer = (size_t)ic_numel(axis, x->dims);
  size_t inner = (size_t)ic_numel(x->ndim - axis - 1, x->dims + axis + 1) * es;
  const char *xp = x->data;
  char *op = o->data;
  for (size_t r = 0; r < outer; r++) {
    for (int64_t k = 0; k < n; k++) {
      memcpy(op + (r * (size_t)n + (size_t)k) * inner,
             xp + (r * (size_t)dim + (size_t)ic_read_i64(idx, k)) * inner, inner);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_gather = {
    .name = "gather", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(gather_attrs), .parse = parse, .infer = infer, .cpu = gather_cpu,
};
