/* gelu on the GPU: the formula gelu_f32 / gelu_f64 of cpu/activation.h with the
 * attributes cpu/gelu.c parses. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(gelu, gelu_attrs, gelu_f32, gelu_f64)
