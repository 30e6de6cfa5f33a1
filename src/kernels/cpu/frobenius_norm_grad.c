/* frobenius_norm_grad: X@GRAD = X / (Out + 1e-12) * Out@GRAD, Out and Out@GRAD broadcast
 * over the reduced dims (phi FrobeniusNormGradFunctor, in the data's type with 1e-12 rounded
 * to float first; a zero norm gives 0). Inputs X, Out, Out@GRAD; the reduce attributes dim
 * (default [0]), keep_dim, reduce_all (in_dtype / out_dtype accepted); float32, float64. */
#include "kernels/cpu/reduce.h"
#include "kernels/cpu/train.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_SUM);
}

#define FN_GRAD(T)                                                                         \
  do {                                                                                     \
    const T *xp = x->data, *op = out->data, *gp = g->data;                                 \
    T *dp = dx->data;                                                                      \
    IC_REDUCE_WALK(geo, dp[i] = (xp[i] / (op[o] + (T)1e-12f)) * gp[o]);                   \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *out = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_reduce_geom geo;
  ic_status st = ic_reduce_geometry(c, &geo);
  if (st) return st;
  if (x->dtype == IC_FP32) FN_GRAD(float);
  else FN_GRAD(double);
  return IC_OK;
}

const ic_opdef ic_op_frobenius_norm_grad =
    IC_REDUCE_SEL_GRAD_DEF("frobenius_norm_grad", parse, run);
