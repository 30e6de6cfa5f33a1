/* bitwise_xor: Out = X ^ Y with Paddle's broadcasting (ew_simple.h), X and Y of one dtype
 * among bool, uint8, int8, int16, int32 and int64; on bool the logical xor
 * (paddle/phi/kernels/funcs/bitwise_functors.h). */
#include "kernels/cpu/ew_simple.h"

#define OP(a, b) ((a) ^ (b))
IC_EWS_LOOPS(bxor_8, uint8_t, OP)
IC_EWS_LOOPS(bxor_16, uint16_t, OP)
IC_EWS_LOOPS(bxor_32, uint32_t, OP)
IC_EWS_LOOPS(bxor_64, uint64_t, OP)

static ic_status infer(ic_kctx *c) {
  return ic_ews_infer(c, IC_DT(IC_BOOL) | IC_DT(IC_UINT8) | IC_DT(IC_INT8) | IC_DT(IC_INT16) |
                             IC_DT_INT);
}

static ic_status run(ic_kctx *c) {
  static const ic_ew_loop loops[4][3] = {IC_EWS_ROW(bxor_8), IC_EWS_ROW(bxor_16),
                                         IC_EWS_ROW(bxor_32), IC_EWS_ROW(bxor_64)};
  switch (ic_dtype_size(ic_in(c, 0, 0)->dtype)) {
    case 1: return ic_ews_run(c, loops[0]);
    case 2: return ic_ews_run(c, loops[1]);
    case 4: return ic_ews_run(c, loops[2]);
    default: return ic_ews_run(c, loops[3]);
  }
}

const ic_opdef ic_op_bitwise_xor = IC_EWS_DEF("bitwise_xor", infer, run);
