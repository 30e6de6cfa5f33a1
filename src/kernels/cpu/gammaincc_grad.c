/* gammaincc_grad: the gradient of gammaincc(x, y) with respect to y only (Paddle computes
 * no x@GRAD): y@GRAD = out@GRAD * -exp(-y) * y^(x - 1) / Gamma(x), evaluated left to right
 * in the inputs' precision with libm's exp, pow and tgamma as Paddle's IgammaGradFunctor
 * (paddle/phi/kernels/impl/gammaincc_grad_kernel_impl.h). float32 and float64, every input
 * of one dtype and dims. Slots out@GRAD, x, y -> y@GRAD as Paddle 3.3.1 writes them. */
#include <math.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *y = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 2, 0, IC_DT_FLOAT);
  if (st) return st;
  for (size_t s = 0; s < 2; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != y->dtype || !ic_dims_equal(t->ndim, t->dims, y->ndim, y->dims)) {
      return ic_kfail_in(c, s, 0, "expected y's dtype and dims");
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), y->dtype, y->ndim, y->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0), *x = ic_in(c, 1, 0), *y = ic_in(c, 2, 0);
  ic_tensor *dy = ic_out(c, 0, 0);
  const int64_t n = ic_numel(y->ndim, y->dims);
  if (y->dtype == IC_FP32) {
    const float *gp = g->data, *a = x->data, *v = y->data;
    float *o = dy->data;
    for (int64_t i = 0; i < n; i++) {
      o[i] = gp[i] * -expf(-v[i]) * powf(v[i], a[i] - 1.0f) / tgammaf(a[i]);
    }
  } else {
    const double *gp = g->data, *a = x->data, *v = y->data;
    double *o = dy->data;
    for (int64_t i = 0; i < n; i++) {
      o[i] = gp[i] * -exp(-v[i]) * pow(v[i], a[i] - 1.0) / tgamma(a[i]);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"out@GRAD", 0}, {"x", 0}, {"y", 0}};
static const ic_slotdef outputs[] = {{"y@GRAD", 0}};

const ic_opdef ic_op_gammaincc_grad = {
    .name = "gammaincc_grad", .n_inputs = 3, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
