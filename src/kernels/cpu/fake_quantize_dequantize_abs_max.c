/* fake_quantize_dequantize_abs_max (the dygraph QAT layers' FakeQuantAbsMax): OutScale =
 * [max |X|], Out = X quantized with it to bit_length bits (default 8), round_type default 1,
 * and dequantized; the same at inference and in training (Paddle's
 * FakeQuantizeDequantizeAbsMaxKernel; ic_quant_am_run, quant.h). Its gradient is the
 * straight-through estimator (quant_ste.h). float32 and float64. */
#include "kernels/cpu/quant.h"

static ic_status run(ic_kctx *c) { return ic_quant_am_run(c, true); }

const ic_opdef ic_op_fake_quantize_dequantize_abs_max = {
    .name = "fake_quantize_dequantize_abs_max", .n_inputs = 1, .inputs = ic_quant_am_inputs,
    .n_outputs = 2, .outputs = ic_quant_am_outputs, .attrs_size = sizeof(ic_quant_am_attrs),
    .parse = ic_quant_am_parse, .infer = ic_quant_am_infer, .cpu = run,
};
