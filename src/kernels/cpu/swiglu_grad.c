/* swiglu_grad: the gradients of swiglu's out = y x sigmoid(x) (SwiGLUGradFunctor in
 * paddle/phi/kernels/funcs/activation_functor.h, in the inputs' precision): with
 * s = 1 / (1 + exp(-x)) and t = x s, x@GRAD = g y s (1 + x - t) and y@GRAD = g t. With y
 * absent (swiglu split x's last axis in half) x@GRAD has x's dims: its first half the gate's
 * gradient, its second half y's. float32 and float64. Slots out@GRAD, x, y (optional) ->
 * x@GRAD, y@GRAD (optional) as Paddle 3.3.1 writes them. */
#include <math.h>

#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0), *x = ic_in(c, 1, 0), *y = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_FLOAT);
  if (st) return st;
  int64_t d[IC_MAX_RANK];
  for (int k = 0; k < x->ndim; k++) d[k] = x->dims[k];
  if (y) {
    if (y->dtype != x->dtype || !ic_dims_equal(y->ndim, y->dims, x->ndim, x->dims)) {
      return ic_kfail_in(c, 2, 0, "expected x's dtype and dims");
    }
  } else {
    if (x->ndim < 1 || x->dims[x->ndim - 1] % 2) {
      return ic_kfail_in(c, 1, 0, "expected an even last dimension when y is absent");
    }
    d[x->ndim - 1] /= 2;
  }
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, d)) {
    return ic_kfail_in(c, 0, 0, "expected x's dtype and swiglu's output dims");
  }
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  if (dx) ic_tensor_set_meta(dx, x->dtype, x->ndim, x->dims);
  if (dy) {
    if (!y) return ic_kfail(c, IC_ERR_SHAPE, "swiglu_grad: y@GRAD asked for without y");
    ic_tensor_set_meta(dy, x->dtype, x->ndim, x->dims);
  }
  return IC_OK;
}

#define SG_RUN(NAME, T, E)                                                                 \
  static void NAME(const T *gp, const T *xp, const T *yp, T *dxp, T *dyp, T *dyh,          \
                   int64_t m, int64_t w, int64_t xs) {                                     \
    for (int64_t i = 0; i < m; i++) {                                                      \
      for (int64_t j = 0; j < w; j++) {                                                    \
        const T a = xp[i * xs + j], b = yp[i * xs + j], gv = gp[i * w + j];                \
        const T s = (T)1 / ((T)1 + E(-a)), t = a * s;                                      \
        if (dxp) dxp[i * xs + j] = gv * b * s * ((T)1 + a - t);                            \
        if (dyp) dyp[i * xs + j] = gv * t;                                                 \
        if (dyh) dyh[i * xs + j] = gv * t;                                                 \
      }                                                                                    \
    }                                                                                      \
  }
SG_RUN(sg_f32, float, expf)
SG_RUN(sg_f64, double, exp)

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0), *x = ic_in(c, 1, 0), *y = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *dy = ic_out(c, 1, 0);
  const int64_t w = g->ndim ? g->dims[g->ndim - 1] : 1, n = ic_numel(g->ndim, g->dims);
  const int64_t m = w ? n / w : 0, xs = y ? w : 2 * w;
  const size_t es = ic_dtype_size(x->dtype);
  const char *yp = y ? (const char *)y->data : (const char *)x->data + es * (size_t)w;
  char *dxp = dx ? dx->data : NULL;
  char *dyp = dy ? dy->data : NULL;
  /* split form: y's gradient is the second half of x@GRAD */
  char *dyh = !y && dxp ? dxp + es * (size_t)w : NULL;
  if (x->dtype == IC_FP32) {
    sg_f32(g->data, x->data, (const float *)yp, (float *)dxp, (float *)dyp, (float *)dyh, m, w,
           xs);
  } else {
    sg_f64(g->data, x->data, (const double *)yp, (double *)dxp, (double *)dyp, (double *)dyh,
           m, w, xs);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"out@GRAD", 0}, {"x", 0}, {"y", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"x@GRAD", IC_SLOT_OPTIONAL}, {"y@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_swiglu_grad = {
    .name = "swiglu_grad", .n_inputs = 3, .inputs = inputs, .n_outputs = 2,
    .outputs = outputs, .infer = infer, .cpu = run,
};
