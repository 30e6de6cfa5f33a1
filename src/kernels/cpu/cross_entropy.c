/* cross_entropy (the first version; Paddle 1.x fluid.layers.cross_entropy with soft_label
 * wrote it, Paddle 3.3.1 still runs it): X holds probabilities along its last axis (D
 * classes), Y has X's dims with the last one 1, in X's precision (phi CrossEntropyOpKernel,
 * CPU).
 * - soft_label: Label is a float tensor like X; Y = -sum_j Label_j * log(X_j), log(0) = -inf
 *   taken as -1e20 (Paddle's TolerableValue), summed in X's precision.
 * - hard labels: Label holds one int32/int64 class index per row (X's dims with the last 1);
 *   Y = -log(X[label]) (TolerableValue again), 0 where Label == ignore_index (default -100);
 *   any other label outside [0, D) is an error naming it. */
#include <math.h>

#include "kernels/cpu/cross_entropy.h"

enum { IN_X, IN_LABEL };

ic_status ic_cross_entropy_parse(ic_attr_reader *r, void *attrs) {
  ce_attrs *a = attrs;
  a->soft_label = ic_ar_bool(r, "soft_label", false);
  a->ignore_index = ic_ar_int(r, "ignore_index", -100);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  int64_t d[IC_MAX_RANK];
  for (int i = 0; i < x->ndim; i++) d[i] = x->dims[i];
  d[x->ndim - 1] = 1;
  char s[128];
  if (a->soft_label) {
    if (l->dtype != x->dtype || !ic_dims_equal(l->ndim, l->dims, x->ndim, x->dims)) {
      return ic_kfail_in(c, IN_LABEL, 0, "expected %s like X (soft_label)",
                         ic_tensor_describe(x, s, sizeof s));
    }
  } else {
    if ((st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT_INT))) return st;
    if (ic_tensor_numel_(l) != ic_numel(x->ndim, d)) {
      return ic_kfail_in(c, IN_LABEL, 0, "expected dims %s (one class index per row of X)",
                         ic_dims_str(x->ndim, d, s, sizeof s));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, d);
  return IC_OK;
}

/* -log(p) in T, with Paddle's TolerableValue: log(p) of -inf is -1e20, of +inf 1e20 */
#define NEG_LOG(T, LOG, p) (-(isinf(LOG(p)) ? (LOG(p) > 0 ? (T)1e20 : (T)-1e20) : LOG(p)))

#define SOFT(T, LOG)                                                                       \
  do {                                                                                     \
    const T *restrict xp = x->data, *restrict lp = l->data;                                \
    T *restrict yp = y->data;                                                              \
    for (int64_t i = 0; i < rows; i++) {                                                   \
      T s = 0;                                                                             \
      for (int64_t j = 0; j < D; j++) {                                                    \
        T lg = LOG(xp[i * D + j]);                                                         \
        if (isinf(lg)) lg = lg > 0 ? (T)1e20 : (T)-1e20;                                   \
        s += lp[i * D + j] * lg;                                                           \
      }                                                                                    \
      yp[i] = -s;                                                                          \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  const int64_t D = x->dims[x->ndim - 1], rows = D ? ic_tensor_numel_(x) / D : 0;
  if (a->soft_label) {
    if (x->dtype == IC_FP32) SOFT(float, logf);
    else SOFT(double, log);
    return IC_OK;
  }
  for (int64_t i = 0; i < rows; i++) {
    int64_t lb = l->dtype == IC_INT64 ? ((const int64_t *)l->data)[i]
                                      : ((const int32_t *)l->data)[i];
    if (lb != a->ignore_index && (lb < 0 || lb >= D)) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input Label '%s' element %lld is %lld, "
                      "expected a class index in [0, %lld) or ignore_index (%lld)",
                      ic_in_name(c, IN_LABEL, 0), (long long)i, (long long)lb, (long long)D,
                      (long long)a->ignore_index);
    }
    if (x->dtype == IC_FP32) {
      float p = lb == a->ignore_index ? 0 : ((const float *)x->data)[i * D + lb];
      ((float *)y->data)[i] = lb == a->ignore_index ? 0.0f : NEG_LOG(float, logf, p);
    } else {
      double p = lb == a->ignore_index ? 0 : ((const double *)x->data)[i * D + lb];
      ((double *)y->data)[i] = lb == a->ignore_index ? 0.0 : NEG_LOG(double, log, p);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Label", 0}};
static const ic_slotdef outputs[] = {{"Y", 0}};

const ic_opdef ic_op_cross_entropy = {
    .name = "cross_entropy",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ce_attrs), .parse = ic_cross_entropy_parse,
    .infer = infer, .cpu = run,
};
