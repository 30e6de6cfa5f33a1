/* sigmoid_cross_entropy_with_logits: Out = max(X, 0) - X * Label + log(1 + exp(-|X|)) element
 * by element (phi SigmoidCrossEntropyWithLogitsKernel, CPU), in X's precision; 0 where
 * (int)Label == ignore_index (default -100). With `normalize`, every element is divided by the
 * number of labels not ignored (at least 1e-6). Label is a float tensor like X. The optional
 * pos_weight input is not supported. */
#include <math.h>

#include "kernels/cpu/sigmoid_ce.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *l = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (ic_in(c, 2, 0)) return ic_kfail(c, IC_ERR_UNSUPPORTED, "input pos_weight is not supported");
  if (l->dtype != x->dtype || !ic_dims_equal(l->ndim, l->dims, x->ndim, x->dims)) {
    char d[128];
    return ic_kfail_in(c, 1, 0, "expected %s like X", ic_tensor_describe(x, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define LOSS(T, LOG, EXP, FABS)                                                            \
  do {                                                                                     \
    const T *restrict xp = x->data, *restrict lp = l->data;                                \
    T *restrict o = out->data;                                                             \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T v = xp[i], lb = lp[i];                                                             \
      if ((int64_t)lb == a->ignore_index) {                                                \
        o[i] = 0;                                                                          \
      } else {                                                                             \
        o[i] = (v > 0 ? v : 0) - v * lb + LOG((T)1 + EXP(-FABS(v)));                      \
      }                                                                                    \
      if (a->normalize) o[i] = (T)(o[i] / norm);                                           \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const sce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *l = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const double norm = ic_sce_norm(a, l);
  int64_t n = ic_tensor_numel_(x);
  if (x->dtype == IC_FP32) LOSS(float, logf, expf, fabsf);
  else LOSS(double, log, exp, fabs);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Label", 0}, {"pos_weight", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sigmoid_cross_entropy_with_logits = {
    .name = "sigmoid_cross_entropy_with_logits",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(sce_attrs), .parse = ic_sce_parse,
    .infer = infer, .cpu = run,
};
