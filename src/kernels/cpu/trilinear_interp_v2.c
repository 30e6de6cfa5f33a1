/* trilinear_interp_v2: resize, v2 on [N, C, D, H, W] (or NDHWC). See interp.c. */
#include "kernels/cpu/interp.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_interp_parse(r, attrs, true, IC_INTERP_TRILINEAR);
}

const ic_opdef ic_op_trilinear_interp_v2 = IC_INTERP_DEF("trilinear_interp_v2", parse);
