/* fake_quantize_moving_average_abs_max (QuantizationTransformPass's activation quantizer for
 * activation_quantize_type 'moving_average_abs_max'): as
 * fake_quantize_dequantize_moving_average_abs_max but Out is only quantized (whole numbers
 * in [-bin_cnt - 1, bin_cnt] in X's float type), not dequantized (ic_quant_ma_run, quant.h;
 * Paddle's FakeQuantOrWithDequantMovingAverageAbsMaxKernel). float32 and float64. */
#include "kernels/cpu/quant.h"

static ic_status run(ic_kctx *c) { return ic_quant_ma_run(c, false); }

const ic_opdef ic_op_fake_quantize_moving_average_abs_max = {
    .name = "fake_quantize_moving_average_abs_max", .n_inputs = 4,
    .inputs = ic_quant_ma_inputs, .n_outputs = 4, .outputs = ic_quant_ma_outputs,
    .attrs_size = sizeof(ic_quant_ma_attrs), .parse = ic_quant_ma_parse,
    .infer = ic_quant_ma_infer, .cpu = run,
};
