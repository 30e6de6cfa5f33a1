/* fake_quantize_dequantize_abs_max_grad: the gradient of fake_quantize_dequantize_abs_max
 * in QAT programs (Paddle 3's grad maker): X@GRAD = Out@GRAD (the straight-through
 * estimator, quant_ste.h). */
#include "kernels/cpu/quant_ste.h"

IC_DEFINE_STE_GRAD(fake_quantize_dequantize_abs_max_grad);
