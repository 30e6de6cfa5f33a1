/* argsort: Out = X sorted along `axis` (default -1), Indices (int64) = the positions the
 * values came from; `descending` (default false). A NaN ranks above every number (last
 * ascending, first descending) and equal values keep their order, as Paddle's comparators
 * with `stable` (paddle/phi/kernels/cpu/argsort_kernel.cc); without `stable` Paddle's
 * std::sort may order equal values differently. float32, float64, int32, int64. */
#include <string.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/cpu/sortutil.h"

typedef struct argsort_attrs {
  int64_t axis;
  bool descending;
} argsort_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Out", 0}, {"Indices", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  argsort_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  a->descending = ic_ar_bool(r, "descending", false);
  (void)ic_ar_bool(r, "stable", false); /* the sort is always stable */
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const argsort_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim > 0 && ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'") < 0) {
    return IC_ERR_SHAPE;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  ic_tensor_set_meta(ic_out(c, 1, 0), IC_INT64, x->ndim, x->dims);
  return IC_OK;
}

static ic_status argsort_cpu(ic_kctx *c) {
  const argsort_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0), *oi = ic_out(c, 1, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  if (n == 0) return IC_OK;
  int axis = x->ndim == 0 ? 0 : (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  int64_t len = x->ndim == 0 ? 1 : x->dims[axis];
  int64_t inner = x->ndim == 0 ? 1 : ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  int64_t outer = n / (len * inner);
  ic_buffer *buf = ic_kscratch(c, (size_t)len * 2 * sizeof(int64_t));
  if (!buf) return c->err->code;
  int64_t *idx = buf->data, *tmp = idx + len, *ip = oi->data;
  size_t es = ic_dtype_size(x->dtype);
  const char *xp = x->data;
  char *op = o->data;
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t i = 0; i < inner; i++) {
      int64_t base = r * len * inner + i;
      ic_argsort_row(x->dtype, xp + (size_t)base * es, inner, len, a->descending, idx, tmp);
      for (int64_t k = 0; k < len; k++) {
        int64_t at = base + k * inner;
        ip[at] = idx[k];
        memcpy(op + (size_t)at * es, xp + (size_t)(base + idx[k] * inner) * es, es);
      }
    }
  }
  ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_argsort = {
    .name = "argsort", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(argsort_attrs), .parse = parse, .infer = infer, .cpu = argsort_cpu,
};
