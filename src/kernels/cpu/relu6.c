/* relu6: Out = min(max(X, 0), threshold), threshold default 6; a NaN stays NaN.
 * Paddle 3 defines relu6 without attributes and clips at 6 whatever an older program's
 * `threshold` says (checked with Paddle 3.3.1); icore honours `threshold`, as the Paddle
 * 2.x versions that wrote it did. Exported models write 6, where the two agree. */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  relu6_attrs *a = attrs;
  a->threshold = (float)ic_ar_float(r, "threshold", 6.0);
  return r->st;
}

IC_ACTIVATION_RUN(relu6, relu6_attrs, relu6_f32, relu6_f64)

const ic_opdef ic_op_relu6 = IC_ACTIVATION_DEF(relu6, relu6_attrs, parse, ic_activation_infer);
