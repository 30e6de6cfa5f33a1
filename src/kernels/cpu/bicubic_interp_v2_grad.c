/* bicubic_interp_v2_grad: X@GRAD = Out@GRAD added back onto the X elements bicubic_interp_v2
 * read, with its weights (interp.h, interp.c). */
#include "kernels/cpu/interp.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_interp_parse(r, attrs, true, IC_INTERP_BICUBIC);
}

const ic_opdef ic_op_bicubic_interp_v2_grad = IC_INTERP_GRAD_DEF("bicubic_interp_v2_grad", parse);
