/* kldiv_loss_grad: X@GRAD = -Target * Loss@GRAD where Target > 0 (0 elsewhere), or with
 * log_target -exp(Target) * Loss@GRAD; then divided by X's element count for reduction
 * "mean" and by X's first dim for "batchmean" ("sum" and "none" keep it). Loss@GRAD has one
 * element per Loss element (X's dims for "none", one element otherwise) and is broadcast
 * over X (phi KLDivLossGradKernel). Inputs X (dims only), Target, Loss@GRAD; attributes
 * reduction (default "mean"), log_target (default false); float32 and float64, in the
 * data's type. No Target@GRAD: Paddle never writes one. */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { RED_NONE, RED_SUM, RED_MEAN, RED_BATCHMEAN };

typedef struct kl_attrs {
  int reduction;
  bool log_target;
} kl_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  kl_attrs *a = attrs;
  a->log_target = ic_ar_bool(r, "log_target", false);
  const char *s = ic_ar_str(r, "reduction", "mean");
  if (r->st) return r->st;
  if (strcmp(s, "none") == 0) a->reduction = RED_NONE;
  else if (strcmp(s, "sum") == 0) a->reduction = RED_SUM;
  else if (strcmp(s, "mean") == 0) a->reduction = RED_MEAN;
  else if (strcmp(s, "batchmean") == 0) a->reduction = RED_BATCHMEAN;
  else return ic_ar_fail(r, "reduction", "is \"%s\", expected none, sum, mean or batchmean", s);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const kl_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *t = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  char d[128];
  if (t->dtype != x->dtype || !ic_dims_equal(t->ndim, t->dims, x->ndim, x->dims)) {
    return ic_kfail_in(c, 1, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  int64_t gn = ic_tensor_numel_(g);
  if (g->dtype != x->dtype) {
    return ic_kfail_in(c, 2, 0, "expected dtype %s like X", ic_dtype_name(x->dtype));
  }
  if (a->reduction == RED_NONE ? !ic_dims_equal(g->ndim, g->dims, x->ndim, x->dims)
                               : gn != 1) {
    return ic_kfail_in(c, 2, 0, "expected %s (reduction %s)",
                       a->reduction == RED_NONE ? "X's dims" : "one element",
                       a->reduction == RED_NONE ? "none" : "other than none");
  }
  if (a->reduction == RED_BATCHMEAN && x->ndim == 0) {
    return ic_kfail_in(c, 0, 0, "expected rank >= 1 for reduction batchmean");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define KLG(T, EXP)                                                                        \
  do {                                                                                     \
    const T *tp = t->data, *gp = g->data;                                                  \
    T *dp = dx->data;                                                                      \
    const T div = a->reduction == RED_MEAN ? (T)n : a->reduction == RED_BATCHMEAN ? (T)b : 0; \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T gv = gp[ng == 1 ? 0 : i], tv = tp[i];                                        \
      T v = a->log_target ? (T)-1 * EXP(tv) * gv : tv <= 0 ? (T)0 : (T)-1 * tv * gv;       \
      dp[i] = div != 0 ? v / div : v;                                                      \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const kl_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *t = ic_in(c, 1, 0), *g = ic_in(c, 2, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(x), ng = ic_tensor_numel_(g);
  const int64_t b = x->ndim ? x->dims[0] : 1;
  if (n == 0) return IC_OK;
  if (x->dtype == IC_FP32) KLG(float, expf);
  else KLG(double, exp);
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", IC_SLOT_NO_BUFFER}, {"Target", 0}, {"Loss@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_kldiv_loss_grad = {
    .name = "kldiv_loss_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(kl_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
