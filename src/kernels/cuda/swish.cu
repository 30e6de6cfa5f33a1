/* swish on the GPU: the formula swish_f32 / swish_f64 of cpu/activation.h with the
 * attributes cpu/swish.c parses. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(swish, swish_attrs, swish_f32, swish_f64)
