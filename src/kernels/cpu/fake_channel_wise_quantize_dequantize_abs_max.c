/* fake_channel_wise_quantize_dequantize_abs_max: per channel along quant_axis (0, the
 * default, or 1) the scale is max |X| over the channel, and Out = X quantized to bit_length
 * bits (default 8) with it and dequantized (quant.h), round_type default 1 (ties away from
 * zero); OutScale = the scales (Paddle's FakeChannelWiseQuantizeDequantizeAbsMaxKernel). The
 * op computes its scales from the data in training and at inference alike; its gradient is
 * the straight-through estimator (quant_ste.h). float32 and float64. */
#include "kernels/cpu/quant.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Out", 0}, {"OutScale", IC_SLOT_OPTIONAL}};

static ic_status infer(ic_kctx *c) { return ic_quant_cw_infer(c, false); }
static ic_status run(ic_kctx *c) { return ic_quant_cw_run(c, true, false); }

const ic_opdef ic_op_fake_channel_wise_quantize_dequantize_abs_max = {
    .name = "fake_channel_wise_quantize_dequantize_abs_max", .n_inputs = 1,
    .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(ic_quant_cw_attrs), .parse = ic_quant_cw_parse, .infer = infer,
    .cpu = run,
};
