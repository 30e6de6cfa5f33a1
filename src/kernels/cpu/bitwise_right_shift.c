/* bitwise_right_shift: out = x >> y, arithmetic (is_arithmetic true, the default) or logical
 * (bitwise_shift.h says how each dtype and shift count behave). */
#include "kernels/cpu/bitwise_shift.h"

IC_EWS_LOOPS(shra_u8, uint8_t, ic_shra_u8)
IC_EWS_LOOPS(shra_i8, int8_t, ic_shra_i8)
IC_EWS_LOOPS(shra_i16, int16_t, ic_shra_i16)
IC_EWS_LOOPS(shra_i32, int32_t, ic_shra_i32)
IC_EWS_LOOPS(shra_i64, int64_t, ic_shra_i64)
IC_EWS_LOOPS(shrl_u8, uint8_t, ic_shrl_u8)
IC_EWS_LOOPS(shrl_i8, int8_t, ic_shrl_i8)
IC_EWS_LOOPS(shrl_i16, int16_t, ic_shrl_i16)
IC_EWS_LOOPS(shrl_i32, int32_t, ic_shrl_i32)
IC_EWS_LOOPS(shrl_i64, int64_t, ic_shrl_i64)

static ic_status run(ic_kctx *c) {
  static const ic_ew_loop arith[5][3] = {IC_EWS_ROW(shra_u8), IC_EWS_ROW(shra_i8),
                                         IC_EWS_ROW(shra_i16), IC_EWS_ROW(shra_i32),
                                         IC_EWS_ROW(shra_i64)};
  static const ic_ew_loop logic[5][3] = {IC_EWS_ROW(shrl_u8), IC_EWS_ROW(shrl_i8),
                                         IC_EWS_ROW(shrl_i16), IC_EWS_ROW(shrl_i32),
                                         IC_EWS_ROW(shrl_i64)};
  const ic_shift_attrs *a = c->attrs;
  const ic_ew_loop(*loops)[3] = a->arithmetic ? arith : logic;
  switch (ic_in(c, 0, 0)->dtype) {
    case IC_UINT8: return ic_ews_run(c, loops[0]);
    case IC_INT8: return ic_ews_run(c, loops[1]);
    case IC_INT16: return ic_ews_run(c, loops[2]);
    case IC_INT32: return ic_ews_run(c, loops[3]);
    default: return ic_ews_run(c, loops[4]);
  }
}

IC_SHIFT_SLOTS

const ic_opdef ic_op_bitwise_right_shift = {
    .name = "bitwise_right_shift", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ic_shift_attrs), .parse = ic_shift_parse,
    .infer = ic_shift_infer, .cpu = run,
};
