/* hard_sigmoid: Out = min(max(slope X + offset, 0), 1), slope 0.2 and offset 0.5 by
 * default (Paddle 2.x exports write slope 1/6 for MobileNetV3's h-sigmoid). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  hard_sigmoid_attrs *a = attrs;
  a->slope = (float)ic_ar_float(r, "slope", 0.2);
  a->offset = (float)ic_ar_float(r, "offset", 0.5);
  return r->st;
}

IC_ACTIVATION_RUN(hard_sigmoid, hard_sigmoid_attrs, hard_sigmoid_f32, hard_sigmoid_f64)

const ic_opdef ic_op_hard_sigmoid =
    IC_ACTIVATION_DEF(hard_sigmoid, hard_sigmoid_attrs, parse, ic_activation_infer);
