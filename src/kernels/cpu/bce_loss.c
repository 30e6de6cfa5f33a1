/* bce_loss: Out = (Label - 1) * max(log(1 - X), -100) - Label * max(log(X), -100), elementwise,
 * X and Label of the same dims, float32 or float64 (log in the dtype's precision); an X
 * outside [0, 1] (or NaN) fails as Paddle's kernel does
 * (paddle/phi/kernels/cpu/bce_loss_kernel.cc, BCELossInferMeta). */
#include <math.h>

#include "kernels/kernel.h"

enum { IN_X, IN_LABEL };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Label", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (l->dtype != x->dtype || !ic_dims_equal(x->ndim, x->dims, l->ndim, l->dims)) {
    char want[96];
    return ic_kfail_in(c, IN_LABEL, 0, "expected X's dtype and dims (%s%s)",
                       ic_dtype_name(x->dtype), ic_dims_str(x->ndim, x->dims, want, sizeof want));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define BCE(T, LOG)                                                                        \
  do {                                                                                     \
    const T *xp = x->data, *lp = l->data;                                                  \
    T *op = ic_out(c, 0, 0)->data;                                                         \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const T v = xp[i], y = lp[i];                                                        \
      if (!(v >= (T)0 && v <= (T)1)) {                                                     \
        return ic_kfail_in(c, IN_X, 0, "holds %g at element %lld, expected in [0, 1]",     \
                           (double)v, (long long)i);                                       \
      }                                                                                    \
      const T a = LOG((T)1 - v), b = LOG(v);                                               \
      op[i] = (y - (T)1) * (a > (T)-100 ? a : (T)-100) - y * (b > (T)-100 ? b : (T)-100);  \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *l = ic_in(c, IN_LABEL, 0);
  const int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) BCE(float, logf);
  else BCE(double, log);
  return IC_OK;
}

const ic_opdef ic_op_bce_loss = {
    .name = "bce_loss", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
