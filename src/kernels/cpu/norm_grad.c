/* norm_grad (fluid's l2_normalize; phi NormGradKernel): with Norm = sqrt(sum x^2 + epsilon)
 * from the forward and g = Out@GRAD, along `axis`:
 *   X@GRAD = (g - x * sum(x * g) / Norm^2) / Norm,
 * the sum in double, each element rounded once. float32, float64. */
#include "kernels/cpu/shapeops.h"

enum { IN_X, IN_NORM, IN_DOUT };

typedef struct ng_attrs {
  int64_t axis;
} ng_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((ng_attrs *)attrs)->axis = ic_ar_int(r, "axis", -1);
  (void)ic_ar_float(r, "epsilon", 1e-10);
  (void)ic_ar_bool(r, "is_test", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ng_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *nm = ic_in(c, IN_NORM, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  const int axis = ic_shapeops_axis(c, IN_X, a->axis, x->ndim, "attribute 'axis'");
  if (axis < 0) return IC_ERR_SHAPE;
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < x->ndim; i++) d[i] = i == axis ? 1 : x->dims[i];
  char b[128];
  if (nm->dtype != x->dtype || !ic_dims_equal(nm->ndim, nm->dims, x->ndim, d)) {
    return ic_kfail_in(c, IN_NORM, 0, "expected %s%s (X's dims with axis %d 1)",
                       ic_dtype_name(x->dtype), ic_dims_str(x->ndim, d, b, sizeof b), axis);
  }
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s like X", ic_tensor_describe(x, b, sizeof b));
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ng_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *nm = ic_in(c, IN_NORM, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  if (!dx) return IC_OK;
  const int axis = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  const int64_t pre = ic_numel(axis, x->dims), n = x->dims[axis];
  const int64_t post = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  for (int64_t i = 0; i < pre; i++) {
    for (int64_t k = 0; k < post; k++) {
      const int64_t base = i * n * post + k;
      const double norm = ic_read_f64(nm, i * post + k);
      double s = 0;
      for (int64_t j = 0; j < n; j++) {
        s += ic_read_f64(x, base + j * post) * ic_read_f64(g, base + j * post);
      }
      for (int64_t j = 0; j < n; j++) {
        const int64_t at = base + j * post;
        const double v = (ic_read_f64(g, at) - ic_read_f64(x, at) * s / (norm * norm)) / norm;
        if (dx->dtype == IC_FP64) ((double *)dx->data)[at] = v;
        else ((float *)dx->data)[at] = (float)v;
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Norm", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_norm_grad = {
    .name = "norm_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ng_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
