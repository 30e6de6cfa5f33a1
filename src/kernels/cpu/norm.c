/* norm: fluid's l2_normalize. Norm = sqrt(sum over `axis` of X^2 + epsilon), X's dims with
 * that axis 1; Out = X / Norm (paddle/phi/kernels/cpu/norm_kernel.cc, NormInferMeta).
 * `axis` in [-rank, rank) (default -1), epsilon default 1e-10; float32, float64. The sum is
 * taken in double and rounded once. */
#include <math.h>

#include "kernels/cpu/shapeops.h"

typedef struct norm_attrs {
  int64_t axis;
  double eps;
} norm_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Out", 0}, {"Norm", IC_SLOT_OPTIONAL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  norm_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  a->eps = (float)ic_ar_float(r, "epsilon", 1e-10);
  (void)ic_ar_bool(r, "is_test", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const norm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  int axis = ic_shapeops_axis(c, 0, a->axis, x->ndim, "attribute 'axis'");
  if (axis < 0) return IC_ERR_SHAPE;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, 1, 0)) {
    int64_t d[IC_MAX_RANK];
    for (int i = 0; i < x->ndim; i++) d[i] = i == axis ? 1 : x->dims[i];
    ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, x->ndim, d);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const norm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0), *nm = ic_out(c, 1, 0);
  const int axis = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis); /* checked by infer */
  const int64_t pre = ic_numel(axis, x->dims), n = x->dims[axis];
  const int64_t post = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  const bool f32 = x->dtype == IC_FP32;
  for (int64_t i = 0; i < pre; i++) {
    for (int64_t k = 0; k < post; k++) {
      const int64_t base = i * n * post + k;
      double s = 0;
      for (int64_t j = 0; j < n; j++) {
        const double v = f32 ? ((const float *)x->data)[base + j * post]
                             : ((const double *)x->data)[base + j * post];
        s += v * v;
      }
      double norm = f32 ? (double)sqrtf((float)s + (float)a->eps) : sqrt(s + a->eps);
      if (nm) {
        if (f32) ((float *)nm->data)[i * post + k] = (float)norm;
        else ((double *)nm->data)[i * post + k] = norm;
      }
      for (int64_t j = 0; j < n; j++) {
        const int64_t at = base + j * post;
        if (f32) ((float *)o->data)[at] = ((const float *)x->data)[at] / (float)norm;
        else ((double *)o->data)[at] = ((const double *)x->data)[at] / norm;
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_norm = {
    .name = "norm", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(norm_attrs), .parse = parse, .infer = infer, .cpu = run,
};
