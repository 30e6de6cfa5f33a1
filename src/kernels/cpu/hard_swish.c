/* hard_swish: Out = min(max(X + offset, 0), threshold) * X / scale, with threshold 6,
 * scale 6 and offset 3 by default (MobileNetV3's h-swish). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  hard_swish_attrs *a = attrs;
  a->threshold = (float)ic_ar_float(r, "threshold", 6.0);
  a->scale = (float)ic_ar_float(r, "scale", 6.0);
  a->offset = (float)ic_ar_float(r, "offset", 3.0);
  return r->st;
}

IC_ACTIVATION_RUN(hard_swish, hard_swish_attrs, hard_swish_f32, hard_swish_f64)

const ic_opdef ic_op_hard_swish =
    IC_ACTIVATION_DEF(hard_swish, hard_swish_attrs, parse, ic_activation_infer);
