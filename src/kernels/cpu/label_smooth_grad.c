/* label_smooth_grad (phi LabelSmoothGradKernel): X@GRAD = (1 - epsilon) * Out@GRAD, the
 * factor rounded to the dtype as Paddle's (PriorDist takes no gradient). float32, float64. */
#include "kernels/kernel.h"

typedef struct lsg_attrs {
  double epsilon;
} lsg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((lsg_attrs *)attrs)->epsilon = (float)ic_ar_float(r, "epsilon", 0.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT)) return c->err->code;
  ic_tensor *dx = ic_out(c, 0, 0);
  if (dx) ic_tensor_set_meta(dx, g->dtype, g->ndim, g->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const lsg_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 0, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  if (!dx) return IC_OK;
  const int64_t n = ic_tensor_numel_(g);
  const float f = (float)(1.0f - (float)a->epsilon);
  if (g->dtype == IC_FP64) {
    const double *gp = g->data;
    double *o = dx->data;
    for (int64_t i = 0; i < n; i++) o[i] = (double)f * gp[i];
  } else {
    const float *gp = g->data;
    float *o = dx->data;
    for (int64_t i = 0; i < n; i++) o[i] = f * gp[i];
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_label_smooth_grad = {
    .name = "label_smooth_grad",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lsg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
