/* gelu: Out = 0.5 X (1 + erf(X / sqrt(2))), or with `approximate` (default false) the tanh
 * form 0.5 X (1 + tanh(sqrt(2 / pi) (X + 0.044715 X^3))). The constants and the order of
 * the products follow paddle/phi/kernels/cpu/gelu_kernel.cc, in the input's precision. */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gelu_attrs *a = attrs;
  a->approximate = ic_ar_bool(r, "approximate", false);
  return r->st;
}

IC_ACTIVATION_RUN(gelu, gelu_attrs, gelu_f32, gelu_f64)

const ic_opdef ic_op_gelu = IC_ACTIVATION_DEF(gelu, gelu_attrs, parse, ic_activation_infer);
