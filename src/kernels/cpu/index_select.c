/* index_select: Out = X's slices at the positions in the 1-D int32/int64 Index along `dim`
 * (default 0). A negative index counts from the end, as Paddle's CPU kernel accepts
 * (paddle/phi/kernels/cpu/index_select_impl.h); out of [-size, size) is an error. */
#include <string.h>

#include "kernels/cpu/index_select.h"
#include "kernels/cpu/shapeops.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Index", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

ic_status ic_index_select_parse(ic_attr_reader *r, void *attrs) {
  index_select_attrs *a = attrs;
  a->dim = ic_ar_int(r, "dim", 0);
  return r->st;
}

int ic_index_select_out_dims(ic_kctx *c, int64_t d[IC_MAX_RANK]) {
  const index_select_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0);
  if (idx->ndim != 1 && !(idx->ndim == 2 && idx->dims[1] == 1)) {
    ic_kfail_in(c, 1, 0, "expected rank 1");
    return -1;
  }
  int axis = ic_shapeops_axis(c, 0, a->dim, x->ndim > 0 ? x->ndim : 1, "attribute 'dim'");
  if (axis < 0) return -1;
  for (int i = 0; i < x->ndim; i++) d[i] = i == axis ? idx->dims[0] : x->dims[i];
  return axis;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[IC_MAX_RANK];
  if (ic_index_select_out_dims(c, d) < 0) return c->err->code;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  return IC_OK;
}

ic_status ic_index_select_check(ic_kctx *c, const ic_tensor *x, const ic_tensor *idx, int axis) {
  const int64_t n = idx->dims[0], dim = x->dims[axis];
  for (int64_t k = 0; k < n; k++) {
    int64_t v = ic_read_i64(idx, k);
    if (v < -dim || v >= dim) {
      return ic_kfail_in(c, 1, 0, "holds %lld at position %lld, expected in [%lld, %lld)",
                         (long long)v, (long long)k, (long long)-dim, (long long)dim);
    }
  }
  return IC_OK;
}

static ic_status index_select_cpu(ic_kctx *c) {
  const index_select_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int axis = (int)(a->dim < 0 ? a->dim + x->ndim : a->dim);
  int64_t n = idx->dims[0], dim = x->dims[axis];
  ic_status st = ic_index_select_check(c, x, idx, axis);
  if (st) return st;
  size_t es = ic_dtype_size(x->dtype);
  size_t outer = (size_t)ic_numel(axis, x->dims);
  size_t inner = (size_t)ic_numel(x->ndim - axis - 1, x->dims + axis + 1) * es;
  const char *xp = x->data;
  char *op = o->data;
  for (size_t r = 0; r < outer; r++) {
    for (int64_t k = 0; k < n; k++) {
      int64_t v = ic_read_i64(idx, k);
      if (v < 0) v += dim;
      memcpy(op + (r * (size_t)n + (size_t)k) * inner, xp + (r * (size_t)dim + (size_t)v) * inner,
             inner);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_index_select = {
    .name = "index_select", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(index_select_attrs), .parse = ic_index_select_parse,
    .infer = infer, .cpu = index_select_cpu,
};
