/* renorm_grad (phi RenormGradFunc, CPU): for each slice i of X along `axis`, with
 * s = sum |x|^p over the slice and norm = s^(1/p): when norm > max_norm, scale =
 * max_norm / norm and d = -max_norm s^(-1 - 1/p), else scale = 1 and d = 0; with
 * w = sum x Out@GRAD over the slice,
 *   X@GRAD = scale Out@GRAD + w d |x|^(p - 1) sign(x)   (sign(0) = 1).
 * The sums in the data's type in element order, the powers as phi takes them. Inputs X,
 * Out@GRAD; attributes p, axis, max_norm (floats / int); float32 and float64. */
#include <math.h>

#include "kernels/kernel.h"

typedef struct renormg_attrs {
  float p, max_norm;
  int64_t axis;
} renormg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  renormg_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "p", 2.0);
  a->axis = ic_ar_int(r, "axis", 0);
  a->max_norm = (float)ic_ar_float(r, "max_norm", 0.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const renormg_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  if (x->ndim == 0) return ic_kfail_in(c, 0, 0, "expected at least 1 dim");
  if (ic_kaxis(c, a->axis, x->ndim, "axis") < 0) return c->err->code;
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define RENORM_GRAD(T, POW, FABS)                                                          \
  do {                                                                                     \
    const T *xp = x->data, *gp = g->data;                                                  \
    T *dp = dx->data, *sv = buf->data, *dv = sv + len, *wv = dv + len;                     \
    for (int64_t i = 0; i < len; i++) sv[i] = dv[i] = wv[i] = 0;                           \
    for (int64_t e = 0; e < n; e++) sv[e / inner % len] += POW(FABS(xp[e]), (T)a->p);      \
    for (int64_t i = 0; i < len; i++) {                                                    \
      const double norm = pow((double)sv[i], 1.0 / (double)a->p);                          \
      if (norm > (double)a->max_norm) {                                                    \
        dv[i] = POW(sv[i], (T)(-1.0 - 1.0 / (double)a->p)) * -1 * (T)a->max_norm;          \
        sv[i] = (T)((double)a->max_norm / norm);                                           \
      } else {                                                                             \
        sv[i] = 1;                                                                         \
      }                                                                                    \
    }                                                                                      \
    for (int64_t e = 0; e < n; e++) {                                                      \
      const int64_t i = e / inner % len;                                                   \
      dp[e] = sv[i] * gp[e];                                                               \
      wv[i] += xp[e] * gp[e];                                                              \
    }                                                                                      \
    for (int64_t e = 0; e < n; e++) {                                                      \
      const int64_t i = e / inner % len;                                                   \
      dp[e] += (T)((double)(wv[i] * dv[i]) * pow((double)FABS(xp[e]), (double)a->p - 1.0) * \
                   (xp[e] >= 0 ? 1 : -1));                                                 \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const renormg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int ax = (int)(a->axis < 0 ? a->axis + x->ndim : a->axis);
  const int64_t n = ic_numel(x->ndim, x->dims), len = x->dims[ax];
  const int64_t inner = ic_numel(x->ndim - ax - 1, x->dims + ax + 1);
  if (n == 0) return IC_OK;
  ic_buffer *buf = ic_kscratch(c, (size_t)len * 3 * sizeof(double));
  if (!buf) return c->err->code;
  if (x->dtype == IC_FP32) RENORM_GRAD(float, powf, fabsf);
  else RENORM_GRAD(double, pow, fabs);
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_renorm_grad = {
    .name = "renorm_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(renormg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
