/* swish: Out = X / (1 + exp(-beta X)), i.e. X sigmoid(beta X). Paddle 3 writes swish
 * without attributes (beta 1); older programs carry `beta` (default 1). */
#include "kernels/cpu/activation.h"

typedef struct swish_attrs {
  float beta;
} swish_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  swish_attrs *a = attrs;
  a->beta = (float)ic_ar_float(r, "beta", 1.0);
  return r->st;
}

static inline float swish_f32(float x, const swish_attrs *a) {
  return x / (1.0f + expf(-a->beta * x));
}
static inline double swish_f64(double x, const swish_attrs *a) {
  return x / (1.0 + exp(-(double)a->beta * x));
}

IC_ACTIVATION_RUN(swish, swish_attrs, swish_f32, swish_f64)

const ic_opdef ic_op_swish = IC_ACTIVATION_DEF(swish, swish_attrs, parse, ic_activation_infer);
