/* elu on the GPU: the formula elu_f32 / elu_f64 of cpu/activation.h, attributes as cpu/elu.c
 * parses them. Float32 and float64 (activation.cuh); the results differ from the CPU kernel's only
 * where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(elu, ic_act1_attrs, elu_f32, elu_f64)
