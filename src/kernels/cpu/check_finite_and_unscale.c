/* check_finite_and_unscale: the AMP gradient check (phi CheckFiniteAndUnscaleKernel, CPU;
 * float32 and float64). X holds tensors of one float dtype, Scale one value of it. The X are
 * taken in order: while none so far held an inf or NaN, Out[i] = X[i] (1 / Scale) (the
 * reciprocal rounded to X's dtype); from the first X that holds one on, FoundInfinite is true
 * and every Out[i] = X[i] * 0 (0, or NaN where X[i] is inf or NaN). The outputs before it keep
 * their unscaled values, as in Paddle. Out[i] may name X[i] (AMP programs unscale the
 * gradients in place). */
#include <math.h>

#include "kernels/kernel.h"

enum { IN_X, IN_SCALE };
enum { OUT_OUT, OUT_FOUND };

static ic_status infer(ic_kctx *c) {
  const size_t n = c->in[IN_X].n;
  ic_status st;
  if (c->out[OUT_OUT].n != n) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "Out holds %zu variables, expected one per X (%zu)",
                    c->out[OUT_OUT].n, n);
  }
  const ic_tensor *s = ic_in(c, IN_SCALE, 0);
  if ((st = ic_kcheck_dtype(c, IN_SCALE, 0, IC_DT_FLOAT))) return st;
  if (ic_tensor_numel_(s) != 1) return ic_kfail_in(c, IN_SCALE, 0, "expected one value");
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *x = ic_in(c, IN_X, i);
    if ((st = ic_kcheck_dtype(c, IN_X, i, IC_DT_FLOAT))) return st;
    if (x->dtype != s->dtype) {
      return ic_kfail_in(c, IN_X, i, "expected %s like Scale '%s'", ic_dtype_name(s->dtype),
                         ic_in_name(c, IN_SCALE, 0));
    }
    ic_tensor_set_meta(ic_out(c, OUT_OUT, i), x->dtype, x->ndim, x->dims);
  }
  const int64_t one[1] = {1};
  ic_tensor_set_meta(ic_out(c, OUT_FOUND, 0), IC_BOOL, 1, one);
  return IC_OK;
}

#define UNSCALE(T, FINITE)                                                                 \
  do {                                                                                     \
    const T inv = (T)(1.0 / (double)*(const T *)ic_in(c, IN_SCALE, 0)->data);               \
    for (size_t k = 0; k < nx; k++) {                                                      \
      const ic_tensor *x = ic_in(c, IN_X, k);                                              \
      const T *restrict xp = x->data;                                                      \
      T *restrict op = ic_out(c, OUT_OUT, k)->data;                                        \
      const int64_t n = ic_tensor_numel_(x);                                               \
      for (int64_t i = 0; i < n && !found; i++) found = !FINITE(xp[i]);                    \
      if (!found) {                                                                        \
        for (int64_t i = 0; i < n; i++) op[i] = xp[i] * inv;                               \
      } else {                                                                             \
        for (int64_t i = 0; i < n; i++) op[i] = xp[i] * (T)0;                              \
      }                                                                                    \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const size_t nx = c->in[IN_X].n;
  bool found = false;
  if (ic_in(c, IN_SCALE, 0)->dtype == IC_FP32) UNSCALE(float, isfinite);
  else UNSCALE(double, isfinite);
  *(bool *)ic_out(c, OUT_FOUND, 0)->data = found;
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI}, {"Scale", 0}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_MULTI}, {"FoundInfinite", 0}};

const ic_opdef ic_op_check_finite_and_unscale = {
    .name = "check_finite_and_unscale",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .infer = infer, .cpu = run,
};
