/* thresholded_relu: Out = X where X > threshold (default 1), else `value` (default 0); a NaN
 * and -inf give NaN (see activation.h). float32 and
 * float64 (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act2_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "threshold", 1.0f);
  a->q = (float)ic_ar_float(r, "value", 0.0f);
  return r->st;
}

IC_ACTIVATION_RUN(thresholded_relu, ic_act2_attrs, thresholded_relu_f32, thresholded_relu_f64)

const ic_opdef ic_op_thresholded_relu =
    IC_ACTIVATION_DEF(thresholded_relu, ic_act2_attrs, parse, ic_activation_infer);
