/* stanh on the GPU: the formula stanh_f32 / stanh_f64 of cpu/activation.h, attributes as
 * cpu/stanh.c parses them. Float32 and float64 (activation.cuh); the results differ from the CPU
 * kernel's only where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(stanh, ic_act2_attrs, stanh_f32, stanh_f64)
