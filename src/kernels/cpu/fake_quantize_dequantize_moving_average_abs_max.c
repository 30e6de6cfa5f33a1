/* fake_quantize_dequantize_moving_average_abs_max: Out = X quantized to bit_length bits
 * (default 8) and dequantized (quant.h), round_type default 1 (ties away from zero), with
 * the moving-average abs-max scale. At inference (is_test) the scale is InScale[0] and
 * OutScale, OutState, OutAccum pass InScale, InState, InAccum through; in training the op
 * updates InState/InAccum into OutState/OutAccum with moving_rate (default 0.9) and uses and
 * writes the new scale (ic_quant_ma_run, quant.h; Paddle's
 * FakeQuantizeDequantizeMovingAverageAbsMaxKernel). float32 and float64. */
#include "kernels/cpu/quant.h"

static ic_status run(ic_kctx *c) { return ic_quant_ma_run(c, true); }

const ic_opdef ic_op_fake_quantize_dequantize_moving_average_abs_max = {
    .name = "fake_quantize_dequantize_moving_average_abs_max", .n_inputs = 4,
    .inputs = ic_quant_ma_inputs, .n_outputs = 4, .outputs = ic_quant_ma_outputs,
    .attrs_size = sizeof(ic_quant_ma_attrs), .parse = ic_quant_ma_parse,
    .infer = ic_quant_ma_infer, .cpu = run,
};
