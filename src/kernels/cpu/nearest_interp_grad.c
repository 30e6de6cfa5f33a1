/* nearest_interp_grad: X@GRAD = Out@GRAD added back onto the X elements nearest_interp read, with
 * its weights (interp.h, interp.c). */
#include "kernels/cpu/interp.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_interp_parse(r, attrs, false, IC_INTERP_NEAREST);
}

const ic_opdef ic_op_nearest_interp_grad = IC_INTERP_GRAD_DEF("nearest_interp_grad", parse);
