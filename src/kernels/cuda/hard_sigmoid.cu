/* hard_sigmoid on the GPU: the formula hard_sigmoid_f32 / hard_sigmoid_f64 of cpu/activation.h with the
 * attributes cpu/hard_sigmoid.c parses. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(hard_sigmoid, hard_sigmoid_attrs, hard_sigmoid_f32, hard_sigmoid_f64)
