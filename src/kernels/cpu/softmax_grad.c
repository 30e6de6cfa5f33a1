/* softmax_grad: X@GRAD = Out * (Out@GRAD - sum(Out@GRAD * Out)) along `axis` (default -1),
 * from the forward op's Out (phi SoftmaxGradKernel). The dot products run in double. */
#include "kernels/cpu/softmax.h"
#include "kernels/kernel.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  softmax_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const softmax_attrs *a = c->attrs;
  const ic_tensor *o = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (g->dtype != o->dtype || !ic_dims_equal(g->ndim, g->dims, o->ndim, o->dims)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected %s like Out", ic_tensor_describe(o, d, sizeof d));
  }
  if (o->ndim > 0 && ic_kaxis(c, a->axis, o->ndim, "axis") < 0) return c->err->code;
  ic_tensor_set_meta(ic_out(c, 0, 0), o->dtype, o->ndim, o->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

static ic_status run(ic_kctx *c) {
  const softmax_attrs *a = c->attrs;
  const ic_tensor *o = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int ax = o->ndim ? ic_kaxis(c, a->axis, o->ndim, "axis") : 0;
  int64_t n = 1, d = o->ndim ? o->dims[ax] : 1, r = 1;
  for (int i = 0; i < ax; i++) n *= o->dims[i];
  for (int i = ax + 1; i < o->ndim; i++) r *= o->dims[i];
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < r; j++) {
      int64_t base = i * d * r + j;
      double dot = 0;
      for (int64_t k = 0; k < d; k++) dot += get(o, base + k * r) * get(g, base + k * r);
      for (int64_t k = 0; k < d; k++) {
        int64_t e = base + k * r;
        double v = get(o, e) * (get(g, e) - dot);
        if (dx->dtype == IC_FP32) ((float *)dx->data)[e] = (float)v;
        else ((double *)dx->data)[e] = v;
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_softmax_grad = {
    .name = "softmax_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(softmax_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
