/* stanh: Out = scale_b tanh(scale_a X) (scale_a 0.67, scale_b 1.7159 by default). float32 and
 * float64 (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "scale_a", 0.67f);
  a->q = (float)ic_ar_float(r, "scale_b", 1.7159f);
  return r->st;
}

IC_ACTIVATION_RUN(stanh, ic_act2_attrs, stanh_f32, stanh_f64)

const ic_opdef ic_op_stanh = IC_ACTIVATION_DEF(stanh, ic_act2_attrs, parse, ic_activation_infer);
