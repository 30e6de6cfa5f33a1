/* kldiv_loss: the elementwise loss of X (log-probabilities) against Target, both of X's dims
 * (float32 or float64): Target * (log(Target) - X) where Target > 0, else 0; with log_target,
 * exp(Target) * (Target - X). reduction: "none" (Loss of X's dims), "sum", "mean" (over all
 * elements) or "batchmean" (the sum over X's dim 0); reduced Loss is 0-D. Sums accumulate in
 * double (Paddle's Eigen sum is a tree, not in order: rounding may differ in the last bits)
 * (paddle/phi/kernels/impl/kldiv_loss_kernel_impl.h, KLDivInferMeta). */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_TARGET };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Target", 0}};
static const ic_slotdef k_outputs[1] = {{"Loss", 0}};

enum { RED_NONE, RED_SUM, RED_MEAN, RED_BATCHMEAN };

typedef struct kldiv_attrs {
  int reduction;
  bool log_target;
} kldiv_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  kldiv_attrs *a = attrs;
  const char *s = ic_ar_str(r, "reduction", "mean");
  a->log_target = ic_ar_bool(r, "log_target", false);
  if (r->st) return r->st;
  if (strcmp(s, "none") == 0) a->reduction = RED_NONE;
  else if (strcmp(s, "sum") == 0) a->reduction = RED_SUM;
  else if (strcmp(s, "mean") == 0) a->reduction = RED_MEAN;
  else if (strcmp(s, "batchmean") == 0) a->reduction = RED_BATCHMEAN;
  else return ic_ar_fail(r, "reduction", "is \"%s\", expected none, sum, mean or batchmean", s);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const kldiv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *t = ic_in(c, IN_TARGET, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (t->dtype != x->dtype || !ic_dims_equal(x->ndim, x->dims, t->ndim, t->dims)) {
    char want[96];
    return ic_kfail_in(c, IN_TARGET, 0, "expected X's dtype and dims (%s%s)",
                       ic_dtype_name(x->dtype), ic_dims_str(x->ndim, x->dims, want, sizeof want));
  }
  if (a->reduction == RED_BATCHMEAN && x->ndim == 0) {
    return ic_kfail_in(c, IN_X, 0, "is 0-D: reduction batchmean needs a dim 0");
  }
  if (a->reduction == RED_NONE) ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  else ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 0, NULL);
  return IC_OK;
}

#define KLDIV(T, LOG, EXP)                                                                 \
  do {                                                                                     \
    const T *xp = x->data, *tp = t->data;                                                  \
    T *op = ic_out(c, 0, 0)->data;                                                         \
    double sum = 0;                                                                        \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T tv = tp[i];                                                                  \
      const T v = a->log_target ? EXP(tv) * (tv - xp[i])                                   \
                                : (tv <= (T)0 ? (T)0 : tv * (LOG(tv) - xp[i]));            \
      if (a->reduction == RED_NONE) op[i] = v;                                             \
      else sum += v;                                                                       \
    }                                                                                      \
    if (a->reduction == RED_SUM) op[0] = (T)sum;                                           \
    else if (a->reduction == RED_MEAN) op[0] = (T)(sum / (double)n);                       \
    else if (a->reduction == RED_BATCHMEAN) op[0] = (T)(sum / (double)x->dims[0]);          \
  } while (0)

static ic_status run(ic_kctx *c) {
  const kldiv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *t = ic_in(c, IN_TARGET, 0);
  const int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) KLDIV(float, logf, expf);
  else KLDIV(double, log, exp);
  return IC_OK;
}

const ic_opdef ic_op_kldiv_loss = {
    .name = "kldiv_loss", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(kldiv_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
