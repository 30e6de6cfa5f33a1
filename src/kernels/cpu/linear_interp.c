/* linear_interp: resize, v1 (the fluid interpolate op, which Paddle 2.6 still registers) on
 * [N, C, W] (or [N, W, C]): `scale` is one float, and as for trilinear_interp (v1) the
 * source step is in / out even when a scale set the size (checked against Paddle 2.6.2: oracle
 * case interp_v1_linear). See interp.c. */
#include "kernels/cpu/interp.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_interp_attrs *a = attrs;
  a->size_ratio = true; /* Paddle 2.6's fluid kernel: ratio in / out whatever set the size */
  return ic_interp_parse(r, attrs, false, IC_INTERP_LINEAR);
}

const ic_opdef ic_op_linear_interp = IC_INTERP_DEF("linear_interp", parse);
