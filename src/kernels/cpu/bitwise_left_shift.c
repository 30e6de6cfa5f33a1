/* bitwise_left_shift: out = x << y (bitwise_shift.h says how each dtype and shift count
 * behave; is_arithmetic makes no difference to a left shift). */
#include "kernels/cpu/bitwise_shift.h"

IC_EWS_LOOPS(shl_u8, uint8_t, ic_shl_u8)
IC_EWS_LOOPS(shl_i8, int8_t, ic_shl_i8)
IC_EWS_LOOPS(shl_i16, int16_t, ic_shl_i16)
IC_EWS_LOOPS(shl_i32, int32_t, ic_shl_i32)
IC_EWS_LOOPS(shl_i64, int64_t, ic_shl_i64)

static ic_status run(ic_kctx *c) {
  static const ic_ew_loop loops[5][3] = {IC_EWS_ROW(shl_u8), IC_EWS_ROW(shl_i8),
                                         IC_EWS_ROW(shl_i16), IC_EWS_ROW(shl_i32),
                                         IC_EWS_ROW(shl_i64)};
  switch (ic_in(c, 0, 0)->dtype) {
    case IC_UINT8: return ic_ews_run(c, loops[0]);
    case IC_INT8: return ic_ews_run(c, loops[1]);
    case IC_INT16: return ic_ews_run(c, loops[2]);
    case IC_INT32: return ic_ews_run(c, loops[3]);
    default: return ic_ews_run(c, loops[4]);
  }
}

IC_SHIFT_SLOTS

const ic_opdef ic_op_bitwise_left_shift = {
    .name = "bitwise_left_shift", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ic_shift_attrs), .parse = ic_shift_parse,
    .infer = ic_shift_infer, .cpu = run,
};
