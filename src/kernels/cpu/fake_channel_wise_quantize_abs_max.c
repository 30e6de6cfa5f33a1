/* fake_channel_wise_quantize_abs_max (QuantizationTransformPass's weight quantizer for
 * weight_quantize_type 'channel_wise_abs_max'): Out = X quantized per channel along
 * quant_axis (0, the default, or 1) to bit_length bits (default 8), not dequantized (whole
 * numbers in X's float type), round_type default 1. In training (is_test false) the scales
 * are max |X| per channel, written to OutScale; at inference (is_test) Paddle's kernel
 * quantizes with the scales OutScale already holds, read back through the input OutScale
 * that the program loader adds (program.c, add_read_back) (Paddle's
 * FakeChannelWiseQuantizeAbsMaxKernel; ic_quant_cw_run, quant.h). float32 and float64. */
#include "kernels/cpu/quant.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"OutScale", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[2] = {{"Out", 0}, {"OutScale", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) {
  const ic_quant_cw_attrs *a = c->attrs;
  return ic_quant_cw_infer(c, a->is_test);
}

static ic_status run(ic_kctx *c) {
  const ic_quant_cw_attrs *a = c->attrs;
  return ic_quant_cw_run(c, false, a->is_test);
}

const ic_opdef ic_op_fake_channel_wise_quantize_abs_max = {
    .name = "fake_channel_wise_quantize_abs_max", .n_inputs = 2, .inputs = k_inputs,
    .n_outputs = 2, .outputs = k_outputs, .attrs_size = sizeof(ic_quant_cw_attrs),
    .parse = ic_quant_cw_parse, .infer = infer, .cpu = run,
};
