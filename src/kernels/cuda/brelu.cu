/* brelu on the GPU: the formula brelu_f32 / brelu_f64 of cpu/activation.h, attributes as
 * cpu/brelu.c parses them. Float32 and float64 (activation.cuh); the results differ from the CPU
 * kernel's only where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(brelu, ic_act2_attrs, brelu_f32, brelu_f64)
