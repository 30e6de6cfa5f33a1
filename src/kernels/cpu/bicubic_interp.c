/* bicubic_interp: resize, v1 (the fluid interpolate op, which Paddle 2.6 still registers):
 * `scale` is one float for every dim and the input 4-D. See interp.c. */
#include "kernels/cpu/interp.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_interp_attrs *a = attrs;
  a->size_ratio = true; /* Paddle 2.6's fluid kernel: ratio in / out whatever set the size */
  return ic_interp_parse(r, attrs, false, IC_INTERP_BICUBIC);
}

const ic_opdef ic_op_bicubic_interp = IC_INTERP_DEF("bicubic_interp", parse);
