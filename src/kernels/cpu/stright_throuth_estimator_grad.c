/* stright_throuth_estimator_grad (Paddle 2.x's spelling): the gradient Paddle 2.x's grad makers
 * write for every fake quantize-dequantize op: X@GRAD = Out@GRAD (the
 * straight-through estimator, quant_ste.h). */
#include "kernels/cpu/quant_ste.h"

IC_DEFINE_STE_GRAD(stright_throuth_estimator_grad);
