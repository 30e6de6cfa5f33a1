/* leaky_relu: Out = X for X >= 0, alpha X otherwise (alpha default 0.02). Computed as
 * Paddle does: max(X, alpha X) for alpha < 1, min(X, alpha X) otherwise; a NaN stays NaN. */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  leaky_relu_attrs *a = attrs;
  a->alpha = ic_ar_float(r, "alpha", (double)0.02f);
  return r->st;
}

IC_ACTIVATION_RUN(leaky_relu, leaky_relu_attrs, leaky_relu_f32, leaky_relu_f64)

const ic_opdef ic_op_leaky_relu =
    IC_ACTIVATION_DEF(leaky_relu, leaky_relu_attrs, parse, ic_activation_infer);
