/* trilinear_interp_grad: the gradient of trilinear_interp (v1, the fluid interpolate op Paddle 2.6
 * still registers): X@GRAD = Out@GRAD added back onto the X elements trilinear_interp read, with
 * its weights (interp.h, interp.c), with the forward's v1 rule that the source step is
 * in / out whatever set the output size (checked against Paddle 2.6.2). */
#include "kernels/cpu/interp.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_interp_attrs *a = attrs;
  a->size_ratio = true; /* Paddle 2.6's fluid kernel: ratio in / out whatever set the size */
  return ic_interp_parse(r, attrs, false, IC_INTERP_TRILINEAR);
}

const ic_opdef ic_op_trilinear_interp_grad = IC_INTERP_GRAD_DEF("trilinear_interp_grad", parse);
