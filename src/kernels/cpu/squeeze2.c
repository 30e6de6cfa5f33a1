/* squeeze2: Out = X without size-1 dims (the same bytes, shared), XShape = meta only.
 *
 * Paddle's rule (paddle/phi/kernels/funcs/unsqueeze.h GetOutputSqueezeShape): with no axes,
 * every dim of size 1 goes; otherwise each listed axis (negative counts from the end,
 * repeats allowed) goes if its dim is 1, and a listed dim that is not 1 is silently kept.
 * A 0-D X stays 0-D and accepts the axes 0 and -1, as Paddle 3.x does. */
#include "kernels/cpu/shapeops.h"

enum { X };
enum { OUT, XSHAPE };

ic_status ic_squeeze2_parse(ic_attr_reader *r, void *attrs) {
  ic_axes_attrs *a = attrs;
  ic_ar_ints(r, "axes", false, &a->axes, &a->n_axes);
  return r->st;
}

ic_status ic_squeeze2_infer(ic_kctx *c) {
  const ic_axes_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, X, 0);
  bool drop[IC_MAX_RANK] = {false};
  for (size_t i = 0; i < a->n_axes; i++) {
    if (x->ndim == 0) {
      if (a->axes[i] != 0 && a->axes[i] != -1) {
        return ic_kfail_in(c, X, 0, "attribute 'axes' holds %lld, a 0-D input takes 0 or -1",
                           (long long)a->axes[i]);
      }
      continue;
    }
    int ax = ic_shapeops_axis(c, X, a->axes[i], x->ndim, "attribute 'axes' entry");
    if (ax < 0) return c->err->code;
    if (x->dims[ax] == 1) drop[ax] = true;
  }
  if (a->n_axes == 0) {
    for (int i = 0; i < x->ndim; i++) drop[i] = x->dims[i] == 1;
  }
  int64_t d[IC_MAX_RANK];
  int nd = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (!drop[i]) d[nd++] = x->dims[i];
  }
  ic_tensor_set_meta(ic_out(c, OUT, 0), x->dtype, nd, d);
  return ic_shapeops_xshape(c, XSHAPE, x);
}

const ic_slotdef ic_squeeze2_inputs[] = {{"X", 0}};

const ic_opdef ic_op_squeeze2 = {
    .name = "squeeze2",
    .n_inputs = 1, .inputs = ic_squeeze2_inputs,
    .n_outputs = 2, .outputs = ic_shapeops_view_outputs,
    .attrs_size = sizeof(ic_axes_attrs), .parse = ic_squeeze2_parse,
    .infer = ic_squeeze2_infer, .cpu = ic_shapeops_view_run,
    .flags = IC_OP_VIEW,
};
