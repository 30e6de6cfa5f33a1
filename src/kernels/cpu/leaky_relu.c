/* leaky_relu: Out = X for X >= 0, alpha X otherwise (alpha default 0.02). Computed as
 * Paddle does: max(X, alpha X) for alpha < 1, min(X, alpha X) otherwise; a NaN stays NaN. */
#include "kernels/cpu/activation.h"

typedef struct leaky_relu_attrs {
  double alpha; /* as written (a float attribute widened); cast to the data's type */
} leaky_relu_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  leaky_relu_attrs *a = attrs;
  a->alpha = ic_ar_float(r, "alpha", (double)0.02f);
  return r->st;
}

static inline float leaky_relu_f32(float x, const leaky_relu_attrs *a) {
  float ax = (float)a->alpha * x;
  return a->alpha < 1.0 ? IC_MAXV(x, ax) : IC_MINV(x, ax);
}
static inline double leaky_relu_f64(double x, const leaky_relu_attrs *a) {
  double ax = a->alpha * x;
  return a->alpha < 1.0 ? IC_MAXV(x, ax) : IC_MINV(x, ax);
}

IC_ACTIVATION_RUN(leaky_relu, leaky_relu_attrs, leaky_relu_f32, leaky_relu_f64)

const ic_opdef ic_op_leaky_relu =
    IC_ACTIVATION_DEF(leaky_relu, leaky_relu_attrs, parse, ic_activation_infer);
