/* mish on the GPU: the formula mish_f32 / mish_f64 of cpu/activation.h, attributes as cpu/mish.c
 * parses them. Float32 and float64 (activation.cuh); the results differ from the CPU kernel's only
 * where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(mish, ic_act1_attrs, mish_f32, mish_f64)
