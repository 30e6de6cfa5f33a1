/* cummax_grad and cummin_grad (cumext.h): for out = the running maximum (minimum) of x along
 * `axis` and indices the position of the element each step holds, x@GRAD = zeros with every
 * out@GRAD element added at its indices position along the axis, in row-major order in the
 * data's type (phi CummaxGradKernel / CumminGradKernel: a scatter-add). Inputs x (meta
 * only), indices (int32/int64, x's dims), out@GRAD (x's dims); attributes axis (negative from
 * the end), dtype (the indices' type). Float32 and float64. */
#include "kernels/cpu/cumext.h"
#include "kernels/cpu/kgrad.h"

enum { IN_X, IN_IDX, IN_DOUT };
const ic_slotdef ic_cumext_grad_inputs[3] = {
    {"x", IC_SLOT_NO_BUFFER}, {"indices", 0}, {"out@GRAD", 0}};
const ic_slotdef ic_cumext_grad_outputs[1] = {{"x@GRAD", 0}};

ic_status ic_cumext_grad_parse(ic_attr_reader *r, void *attrs) {
  ((ic_cumext_grad_attrs *)attrs)->axis = ic_ar_int(r, "axis", -1);
  (void)ic_ar_int(r, "dtype", 3);
  return r->st;
}

ic_status ic_cumext_grad_infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_IDX, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_IDX, 0), *g = ic_in(c, IN_DOUT, 0);
  const int64_t axis = ((const ic_cumext_grad_attrs *)c->attrs)->axis;
  if (ic_kaxis(c, axis, x->ndim > 0 ? x->ndim : 1, "axis") < 0) return c->err->code;
  if ((st = kg_expect(c, IN_DOUT, g->dtype, x->ndim, x->dims, "x's"))) return st;
  if (!ic_dims_equal(idx->ndim, idx->dims, x->ndim, x->dims)) {
    return ic_kfail_in(c, IN_IDX, 0, "expected x's dims");
  }
  kg_out(c, 0, g->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_cumext_grad_run(ic_kctx *c) {
  const ic_cumext_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *idx = ic_in(c, IN_IDX, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  kg_zero(dx);
  if (x->ndim == 0) {
    kg_put(dx, 0, kg_get(g, 0));
    return IC_OK;
  }
  const int ax = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  const int64_t outer = ic_numel(ax, x->dims), len = x->dims[ax];
  const int64_t inner = ic_numel(x->ndim - ax - 1, x->dims + ax + 1);
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t j = 0; j < len; j++) {
      for (int64_t i = 0; i < inner; i++) {
        const int64_t at = (r * len + j) * inner + i, p = ic_read_i64(idx, at);
        if (p < 0 || p >= len) {
          return ic_kfail_in(c, IN_IDX, 0, "holds %lld at %lld, expected in [0, %lld)",
                             (long long)p, (long long)at, (long long)len);
        }
        kg_add(dx, (r * len + p) * inner + i, kg_get(g, at));
      }
    }
  }
  return IC_OK;
}
