/* brelu: Out = min(max(X, t_min), t_max) (hard_tanh in the Python API; t_min 0, t_max 24 by
 * default). A NaN stays NaN. float32 and float64
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "t_min", 0.0f);
  a->q = (float)ic_ar_float(r, "t_max", 24.0f);
  return r->st;
}

IC_ACTIVATION_RUN(brelu, ic_act2_attrs, brelu_f32, brelu_f64)

const ic_opdef ic_op_brelu = IC_ACTIVATION_DEF(brelu, ic_act2_attrs, parse, ic_activation_infer);
