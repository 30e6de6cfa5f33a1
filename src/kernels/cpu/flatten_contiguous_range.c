/* flatten_contiguous_range: Out = X with dims start_axis..stop_axis merged into one (the same
 * bytes, shared), XShape = meta only (paddle/phi/infermeta/unary.cc FlattenInferMeta).
 * Both axes may be negative. A 0-D X takes only 0 or -1 and becomes [1]. Paddle does not
 * range-check the axes of a ranked X (it reads past the dims); here they must lie in
 * [-rank, rank). */
#include "kernels/cpu/shapeops.h"

typedef struct flatten_attrs {
  int64_t start_axis, stop_axis;
} flatten_attrs;

enum { X };
enum { OUT, XSHAPE };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  flatten_attrs *a = attrs;
  a->start_axis = ic_ar_int_req(r, "start_axis");
  a->stop_axis = ic_ar_int_req(r, "stop_axis");
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const flatten_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, X, 0);
  int64_t d[IC_MAX_RANK];
  int nd = 0;
  if (x->ndim == 0) {
    if ((a->start_axis != 0 && a->start_axis != -1) || (a->stop_axis != 0 && a->stop_axis != -1)) {
      return ic_kfail_in(c, X, 0,
                         "a 0-D input takes start_axis and stop_axis 0 or -1, got %lld and %lld",
                         (long long)a->start_axis, (long long)a->stop_axis);
    }
    d[nd++] = 1;
  } else {
    int start = ic_shapeops_axis(c, X, a->start_axis, x->ndim, "start_axis");
    if (start < 0) return c->err->code;
    int stop = ic_shapeops_axis(c, X, a->stop_axis, x->ndim, "stop_axis");
    if (stop < 0) return c->err->code;
    if (stop < start) {
      return ic_kfail_in(c, X, 0,
                         "stop_axis %lld (axis %d) comes before start_axis %lld (axis %d)",
                         (long long)a->stop_axis, stop, (long long)a->start_axis, start);
    }
    for (int i = 0; i < start; i++) d[nd++] = x->dims[i];
    d[nd++] = ic_numel(stop - start + 1, x->dims + start);
    for (int i = stop + 1; i < x->ndim; i++) d[nd++] = x->dims[i];
  }
  ic_tensor_set_meta(ic_out(c, OUT, 0), x->dtype, nd, d);
  return ic_shapeops_xshape(c, XSHAPE, x);
}

static const ic_slotdef inputs[] = {{"X", 0}};

const ic_opdef ic_op_flatten_contiguous_range = {
    .name = "flatten_contiguous_range",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = ic_shapeops_view_outputs,
    .attrs_size = sizeof(flatten_attrs), .parse = parse,
    .infer = infer, .cpu = ic_shapeops_view_run,
    .flags = IC_OP_VIEW,
};
