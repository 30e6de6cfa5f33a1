/* frobenius_norm_grad: X@GRAD = X / (Out + 1e-12) * Out@GRAD, Out and Out@GRAD broadcast
 * over the reduced dims (phi FrobeniusNormGradFunctor, in the data's type with 1e-12 rounded
 * to float first; a zero norm gives 0). Inputs X, Out, Out@GRAD; the reduce attributes dim
 * (default [0]), keep_dim, reduce_all (in_dtype / out_dtype accepted); float32, float64. */
#include "kernels/cpu/reduce.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_SUM);
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT))) return st;
  ic_reduce_geom geo;
  if ((st = ic_reduce_geometry(c, &geo))) return st;
  for (size_t s = 1; s < 3; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != geo.out_n) {
      return ic_kfail_in(c, s, 0, "expected %s with %lld elements (X reduced)",
                         ic_dtype_name(x->dtype), (long long)geo.out_n);
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* Walks X in memory order with o, the index of its element's reduction in Out. */
#define FN_GRAD(T)                                                                         \
  do {                                                                                     \
    const T *xp = x->data, *op = out->data, *gp = g->data;                                 \
    T *dp = dx->data;                                                                      \
    int64_t idx[IC_MAX_RANK] = {0}, o = 0;                                                 \
    for (int64_t i = 0; i < geo.in_n; i++) {                                               \
      dp[i] = (xp[i] / (op[o] + (T)1e-12f)) * gp[o];                                       \
      for (int k = geo.n - 1; k >= 0; k--) {                                               \
        o += geo.ostride[k];                                                               \
        if (++idx[k] < geo.size[k]) break;                                                 \
        o -= geo.ostride[k] * geo.size[k];                                                 \
        idx[k] = 0;                                                                        \
      }                                                                                    \
    }                                                                                      \
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

static const ic_slotdef inputs[] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_frobenius_norm_grad = {
    .name = "frobenius_norm_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_reduce_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
