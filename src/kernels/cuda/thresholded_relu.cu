/* thresholded_relu on the GPU: the formula thresholded_relu_f32 / thresholded_relu_f64 of
 * cpu/activation.h, attributes as cpu/thresholded_relu.c parses them. Float32 and float64
 * (activation.cuh); the results differ from the CPU kernel's only where CUDA's math library rounds
 * differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(thresholded_relu, ic_act2_attrs, thresholded_relu_f32, thresholded_relu_f64)
