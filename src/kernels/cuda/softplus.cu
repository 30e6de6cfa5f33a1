/* softplus on the GPU: the formula softplus_f32 / softplus_f64 of cpu/activation.h, attributes as
 * cpu/softplus.c parses them. Float32 and float64 (activation.cuh); the results differ from the
 * CPU kernel's only where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(softplus, ic_act2_attrs, softplus_f32, softplus_f64)
