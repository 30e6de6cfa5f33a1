/* lrn_grad: the gradient of lrn (paddle/phi/kernels/cpu/lrn_grad_kernel.cc). With MidOut the
 * forward's k + alpha * (window sum of squares) and pre = (n - 1) / 2, for each channel i
 *   X@GRAD[i] = MidOut[i]^-beta * Out@GRAD[i]
 *             + sum over channels c in [i - pre, i + pre] inside [0, C) of
 *               (-2 alpha beta) * Out@GRAD[c] * Out[c] * X[i] / MidOut[c],
 * evaluated in the dtype in that order, as Paddle does. Inputs X, Out, MidOut and Out@GRAD
 * (all of X's dims), lrn's attributes (n, k, alpha, beta, data_format NCHW / NHWC /
 * AnyLayout). float32, float64. */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct lrn_grad_attrs {
  int64_t n;
  double alpha, beta;
  bool nhwc;
} lrn_grad_attrs;

enum { IN_X, IN_OUT, IN_MID, IN_DOUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lrn_grad_attrs *a = attrs;
  a->n = ic_ar_int(r, "n", 5);
  (void)ic_ar_float(r, "k", 2.0);
  a->alpha = (float)ic_ar_float(r, "alpha", 1e-4);
  a->beta = (float)ic_ar_float(r, "beta", 0.75);
  const char *f = ic_ar_str(r, "data_format", "AnyLayout");
  (void)ic_ar_bool(r, "is_test", false);
  if (r->st) return r->st;
  if (a->n < 1 || a->n % 2 == 0) {
    return ic_ar_fail(r, "n", "is %lld, expected an odd size >= 1", (long long)a->n);
  }
  a->nhwc = !strcmp(f, "NHWC");
  if (!a->nhwc && strcmp(f, "NCHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected NCHW or NHWC", f);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, IN_X, 0, "expected rank 4");
  for (int j = IN_OUT; j <= IN_DOUT; j++) {
    const ic_tensor *t = ic_in(c, j, 0);
    if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, x->ndim, x->dims)) {
      char d[128];
      return ic_kfail_in(c, j, 0, "expected %s%s, as X", ic_dtype_name(x->dtype),
                         ic_dims_str(x->ndim, x->dims, d, sizeof d));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, x->dims);
  return IC_OK;
}

#define LRN_GRAD(T, POW)                                                                   \
  do {                                                                                     \
    const T *xd = ic_in(c, IN_X, 0)->data, *od = ic_in(c, IN_OUT, 0)->data;                \
    const T *md = ic_in(c, IN_MID, 0)->data, *gd = ic_in(c, IN_DOUT, 0)->data;             \
    T *dd = ic_out(c, 0, 0)->data;                                                         \
    const T ratio = (T)-2 * (T)a->alpha * (T)a->beta, nb = (T)-a->beta;                    \
    for (int64_t b = 0; b < N; b++) {                                                      \
      for (int64_t p = 0; p < HW; p++) {                                                   \
        const int64_t base = a->nhwc ? (b * HW + p) * C : b * C * HW + p;                  \
        const int64_t cs = a->nhwc ? 1 : HW;                                               \
        for (int64_t i = 0; i < C; i++) {                                                  \
          const int64_t at = base + i * cs;                                                \
          T v = (T)POW(md[at], nb) * gd[at];                                               \
          for (int64_t ch = i - pre; ch <= i + pre; ch++) {                                \
            if (ch < 0 || ch >= C) continue;                                               \
            const int64_t ct = base + ch * cs;                                             \
            v += ratio * gd[ct] * od[ct] * xd[at] / md[ct];                                \
          }                                                                                \
          dd[at] = v;                                                                      \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const lrn_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const int64_t N = x->dims[0], C = a->nhwc ? x->dims[3] : x->dims[1];
  const int64_t HW = a->nhwc ? x->dims[1] * x->dims[2] : x->dims[2] * x->dims[3];
  const int64_t pre = (a->n - 1) / 2;
  if (x->dtype == IC_FP32) LRN_GRAD(float, powf);
  else LRN_GRAD(double, pow);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Out", 0}, {"MidOut", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_lrn_grad = {
    .name = "lrn_grad", .n_inputs = 4, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lrn_grad_attrs), .parse = parse, .infer = infer, .cpu = run,
};
