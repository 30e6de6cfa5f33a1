/* selu on the GPU: the formula selu_f32 / selu_f64 of cpu/activation.h, attributes as cpu/selu.c
 * parses them. Float32 and float64 (activation.cuh); the results differ from the CPU kernel's only
 * where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(selu, ic_act2_attrs, selu_f32, selu_f64)
