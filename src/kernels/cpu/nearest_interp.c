/* nearest_interp: resize, v1 (the fluid interpolate op): `scale` is one float for every
 * dim and the input 4-D. See interp.c. */
#include "kernels/cpu/interp.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_interp_parse(r, attrs, false, IC_INTERP_NEAREST);
}

const ic_opdef ic_op_nearest_interp = IC_INTERP_DEF_SLOTS("nearest_interp", parse, ic_interp_nearest_inputs);
