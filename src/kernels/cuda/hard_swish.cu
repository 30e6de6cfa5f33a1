/* hard_swish on the GPU: the formula hard_swish_f32 / hard_swish_f64 of cpu/activation.h with the
 * attributes cpu/hard_swish.c parses. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(hard_swish, hard_swish_attrs, hard_swish_f32, hard_swish_f64)
