/* gelu: Out = 0.5 X (1 + erf(X / sqrt(2))), or with `approximate` (default false) the tanh
 * form 0.5 X (1 + tanh(sqrt(2 / pi) (X + 0.044715 X^3))). The constants and the order of
 * the products follow paddle/phi/kernels/cpu/gelu_kernel.cc, in the input's precision. */
#include "kernels/cpu/activation.h"

typedef struct gelu_attrs {
  bool approximate;
} gelu_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gelu_attrs *a = attrs;
  a->approximate = ic_ar_bool(r, "approximate", false);
  return r->st;
}

#define SQRT_2_OVER_PI 0.79788456080286535587989211986876 /* M_2_SQRTPI * M_SQRT1_2 */
#define SQRT1_2 0.70710678118654752440084436210485       /* M_SQRT1_2 */
#define GELU_C 0.044715

static inline float gelu_f32(float x, const gelu_attrs *a) {
  float t = a->approximate ? tanhf((float)SQRT_2_OVER_PI * (x + (float)GELU_C * (x * x * x)))
                           : erff(x * (float)SQRT1_2);
  return x * 0.5f * (1.0f + t);
}

static inline double gelu_f64(double x, const gelu_attrs *a) {
  double t = a->approximate ? tanh(SQRT_2_OVER_PI * (x + GELU_C * (x * x * x)))
                            : erf(x * SQRT1_2);
  return x * 0.5 * (1.0 + t);
}

IC_ACTIVATION_RUN(gelu, gelu_attrs, gelu_f32, gelu_f64)

const ic_opdef ic_op_gelu = IC_ACTIVATION_DEF(gelu, gelu_attrs, parse, ic_activation_infer);
