/* soft_relu: Out = ln(1 + exp(X clipped to [-threshold, threshold])) (threshold 40 by
 * default), the fluid activation Paddle 2.6 still registers (paddle/fluid/operators/
 * activation_op.h SoftReluFunctor). float32 and float64; a NaN stays NaN. */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "threshold", 40.0f);
  return r->st;
}

IC_ACTIVATION_RUN(soft_relu, ic_act1_attrs, soft_relu_f32, soft_relu_f64)

const ic_opdef ic_op_soft_relu =
    IC_ACTIVATION_DEF(soft_relu, ic_act1_attrs, parse, ic_activation_infer);
