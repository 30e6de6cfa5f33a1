/* log_softmax_grad: X@GRAD = Out@GRAD - exp(Out) * sum(Out@GRAD) along `axis` (default -1),
 * from the forward op's Out (phi LogSoftmaxGradKernel); 0 for a 0-D Out. Inputs Out,
 * Out@GRAD; float32 and float64, the sum in the data's type in order along the axis. */
#include <math.h>

#include "kernels/kernel.h"

typedef struct lsg_attrs {
  int64_t axis;
} lsg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lsg_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const lsg_attrs *a = c->attrs;
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

#define LSG(T, EXP)                                                                        \
  do {                                                                                     \
    const T *op = o->data, *gp = g->data;                                                  \
    T *dp = dx->data;                                                                      \
    if (o->ndim == 0) {                                                                    \
      dp[0] = 0;                                                                           \
      break;                                                                               \
    }                                                                                      \
    for (int64_t i = 0; i < n; i++) {                                                      \
      for (int64_t j = 0; j < r; j++) {                                                    \
        const int64_t base = i * d * r + j;                                                \
        T s = 0;                                                                           \
        for (int64_t k = 0; k < d; k++) s += gp[base + k * r];                             \
        for (int64_t k = 0; k < d; k++) {                                                  \
          const int64_t e = base + k * r;                                                  \
          dp[e] = gp[e] - EXP(op[e]) * s;                                                  \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const lsg_attrs *a = c->attrs;
  const ic_tensor *o = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  if (ic_tensor_numel_(o) == 0) return IC_OK;
  int ax = o->ndim ? ic_kaxis(c, a->axis, o->ndim, "axis") : 0;
  int64_t n = 1, d = o->ndim ? o->dims[ax] : 1, r = 1;
  for (int i = 0; i < ax; i++) n *= o->dims[i];
  for (int i = ax + 1; i < o->ndim; i++) r *= o->dims[i];
  if (o->dtype == IC_FP32) LSG(float, expf);
  else LSG(double, exp);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_log_softmax_grad = {
    .name = "log_softmax_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lsg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
