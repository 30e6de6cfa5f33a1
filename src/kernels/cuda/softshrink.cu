/* softshrink on the GPU: the formula softshrink_f32 / softshrink_f64 of cpu/activation.h,
 * attributes as cpu/softshrink.c parses them. Float32 and float64 (activation.cuh); the results
 * differ from the CPU kernel's only where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(softshrink, ic_act1_attrs, softshrink_f32, softshrink_f64)
