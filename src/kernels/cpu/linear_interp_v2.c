/* linear_interp_v2: resize, v2 on [N, C, W] (or [N, W, C]). See interp.c. */
#include "kernels/cpu/interp.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_interp_parse(r, attrs, true, IC_INTERP_LINEAR);
}

const ic_opdef ic_op_linear_interp_v2 = IC_INTERP_DEF("linear_interp_v2", parse);
