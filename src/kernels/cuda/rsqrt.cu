/* rsqrt on the GPU: the formula rsqrt_f32 / rsqrt_f64 of cpu/activation.h, no attributes. Float32
 * and float64 (activation.cuh); the results differ from the CPU kernel's only where CUDA's math
 * library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(rsqrt, ic_noattrs, rsqrt_f32, rsqrt_f64)
