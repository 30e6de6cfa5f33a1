/* nearest_interp_v2: resize, v2: `scale` is a list, one value per spatial dim. See interp.c. */
#include "kernels/cpu/interp.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_interp_parse(r, attrs, true, IC_INTERP_NEAREST);
}

const ic_opdef ic_op_nearest_interp_v2 = IC_INTERP_DEF_SLOTS("nearest_interp_v2", parse, ic_interp_nearest_inputs);
