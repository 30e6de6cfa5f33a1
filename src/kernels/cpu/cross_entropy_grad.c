/* cross_entropy_grad: the gradient of cross_entropy (phi CrossEntropyGradientOpKernel, CPU),
 * X@GRAD like X:
 * - soft_label: X@GRAD = -Label * Y@GRAD[row] / X;
 * - hard labels: -Y@GRAD[row] / X at the label's column, 0 elsewhere and on rows whose label
 *   is ignore_index; a label outside [0, D) is an error naming it (Paddle writes out of
 *   bounds). */
#include "kernels/cpu/cross_entropy.h"

enum { IN_X, IN_LABEL, IN_DY };

static ic_status infer(ic_kctx *c) {
  const ce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0), *dy = ic_in(c, IN_DY, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1");
  const int64_t D = x->dims[x->ndim - 1], rows = D ? ic_tensor_numel_(x) / D : 0;
  char s[128];
  if (a->soft_label) {
    if (l->dtype != x->dtype || !ic_dims_equal(l->ndim, l->dims, x->ndim, x->dims)) {
      return ic_kfail_in(c, IN_LABEL, 0, "expected %s like X (soft_label)",
                         ic_tensor_describe(x, s, sizeof s));
    }
  } else {
    if ((st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT_INT))) return st;
    if (ic_tensor_numel_(l) != rows) {
      return ic_kfail_in(c, IN_LABEL, 0, "expected %lld class indices (one per row of X)",
                         (long long)rows);
    }
  }
  if (dy->dtype != x->dtype || ic_tensor_numel_(dy) != rows) {
    return ic_kfail_in(c, IN_DY, 0, "expected %s with %lld elements (one per row of X)",
                       ic_dtype_name(x->dtype), (long long)rows);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define SOFT(T)                                                                            \
  do {                                                                                     \
    const T *restrict xp = x->data, *restrict lp = l->data, *restrict gp = dy->data;       \
    T *restrict o = dx->data;                                                              \
    for (int64_t i = 0; i < rows * D; i++) o[i] = -lp[i] * gp[i / D] / xp[i];              \
  } while (0)

#define HARD(T)                                                                            \
  do {                                                                                     \
    const T *restrict xp = x->data, *restrict gp = dy->data;                               \
    T *restrict o = dx->data;                                                              \
    for (int64_t i = 0; i < rows; i++) {                                                   \
      int64_t lb = lab(l, i);                                                              \
      for (int64_t j = 0; j < D; j++) {                                                    \
        o[i * D + j] = j != lb || lb == a->ignore_index ? (T)0 : -gp[i] / xp[i * D + j];   \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static int64_t lab(const ic_tensor *l, int64_t i) {
  return l->dtype == IC_INT64 ? ((const int64_t *)l->data)[i] : ((const int32_t *)l->data)[i];
}

static ic_status run(ic_kctx *c) {
  const ce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0), *dy = ic_in(c, IN_DY, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t D = x->dims[x->ndim - 1], rows = D ? ic_tensor_numel_(x) / D : 0;
  if (a->soft_label) {
    if (x->dtype == IC_FP32) SOFT(float);
    else SOFT(double);
    return IC_OK;
  }
  for (int64_t i = 0; i < rows; i++) {
    int64_t lb = lab(l, i);
    if (lb != a->ignore_index && (lb < 0 || lb >= D)) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input Label '%s' element %lld is %lld, "
                      "expected a class index in [0, %lld) or ignore_index (%lld)",
                      ic_in_name(c, IN_LABEL, 0), (long long)i, (long long)lb, (long long)D,
                      (long long)a->ignore_index);
    }
  }
  if (x->dtype == IC_FP32) HARD(float);
  else HARD(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Label", 0}, {"Y@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_cross_entropy_grad = {
    .name = "cross_entropy_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ce_attrs), .parse = ic_cross_entropy_parse,
    .infer = infer, .cpu = run,
};
