/* hard_shrink: Out = X where |X| >= threshold (default 0.5), else 0. float32 and float64
 * (paddle/phi/kernels/funcs/activation_functor.h). */
#include "kernels/cpu/activation.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_act1_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "threshold", 0.5f);
  return r->st;
}

IC_ACTIVATION_RUN(hard_shrink, ic_act1_attrs, hard_shrink_f32, hard_shrink_f64)

const ic_opdef ic_op_hard_shrink =
    IC_ACTIVATION_DEF(hard_shrink, ic_act1_attrs, parse, ic_activation_infer);
