/* logsumexp_grad: X@GRAD = Out@GRAD * exp(X - Out), Out and Out@GRAD broadcast over the
 * reduced axes (phi LogsumexpGradKernel). Inputs X, Out, Out@GRAD; the logsumexp attributes
 * axis, keepdim, reduce_all (reduce.c reads them; an axis list naming every axis reduces
 * all); float32 and float64, computed in the data's type. */
#include <math.h>

#include "kernels/cpu/reduce.h"
#include "kernels/cpu/train.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_LOGSUMEXP);
}

#define LSE_GRAD(T, EXP)                                                                   \
  do {                                                                                     \
    const T *xp = x->data, *op = out->data, *gp = g->data;                                 \
    T *dp = dx->data;                                                                      \
    IC_REDUCE_WALK(geo, dp[i] = gp[o] * EXP(xp[i] - op[o]));                               \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *out = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_reduce_geom geo;
  ic_status st = ic_reduce_geometry(c, &geo);
  if (st) return st;
  if (x->dtype == IC_FP32) LSE_GRAD(float, expf);
  else LSE_GRAD(double, exp);
  return IC_OK;
}

const ic_opdef ic_op_logsumexp_grad = IC_REDUCE_SEL_GRAD_DEF("logsumexp_grad", parse, run);
