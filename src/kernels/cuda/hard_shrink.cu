/* hard_shrink on the GPU: the formula hard_shrink_f32 / hard_shrink_f64 of cpu/activation.h,
 * attributes as cpu/hard_shrink.c parses them. Float32 and float64 (activation.cuh); the results
 * differ from the CPU kernel's only where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(hard_shrink, ic_act1_attrs, hard_shrink_f32, hard_shrink_f64)
