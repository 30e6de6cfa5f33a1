/* leaky_relu on the GPU: the formula leaky_relu_f32 / leaky_relu_f64 of cpu/activation.h with the
 * attributes cpu/leaky_relu.c parses. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(leaky_relu, leaky_relu_attrs, leaky_relu_f32, leaky_relu_f64)
