/* celu on the GPU: the formula celu_f32 / celu_f64 of cpu/activation.h, attributes as cpu/celu.c
 * parses them. Float32 and float64 (activation.cuh); the results differ from the CPU kernel's only
 * where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(celu, ic_act1_attrs, celu_f32, celu_f64)
