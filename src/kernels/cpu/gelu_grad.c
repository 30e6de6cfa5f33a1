/* gelu_grad: X@GRAD = Out@GRAD * gelu'(X) (phi GeluGradKernel), in X's precision:
 *   exact:        0.5 (1 + erf(x / sqrt 2)) + x exp(-x^2 / 2) / sqrt(2 pi)
 *   approximate:  with t = tanh(sqrt(2 / pi) (x + 0.044715 x^3)),
 *                 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2 / pi) (1 + 3 * 0.044715 x^2). */
#include <math.h>

#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gelu_attrs *a = attrs;
  a->approximate = ic_ar_bool(r, "approximate", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define GRAD(T, ERF, EXP, TANH)                                                            \
  do {                                                                                     \
    const T *restrict xp = x->data, *restrict gp = g->data;                                \
    T *restrict o = dx->data;                                                              \
    const T k_a = (T)IC_GELU_SQRT_2_OVER_PI, k_c = (T)0.044715;                            \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T v = xp[i], d;                                                                      \
      if (a->approximate) {                                                                \
        T t = TANH(k_a * (v + k_c * v * v * v));                                           \
        d = (T)0.5 * (1 + t) + (T)0.5 * v * (1 - t * t) * k_a * (1 + 3 * k_c * v * v);     \
      } else {                                                                             \
        d = (T)0.5 * (1 + ERF(v * (T)IC_GELU_SQRT1_2)) +                                   \
            (T)(0.5 * IC_GELU_SQRT_2_OVER_PI) * v * EXP((T)-0.5 * v * v);                  \
      }                                                                                    \
      o[i] = gp[i] * d;                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const gelu_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) GRAD(float, erff, expf, tanhf);
  else GRAD(double, erf, exp, tanh);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_gelu_grad = {
    .name = "gelu_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(gelu_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
