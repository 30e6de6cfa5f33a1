/* tanh_shrink on the GPU: the formula tanh_shrink_f32 / tanh_shrink_f64 of cpu/activation.h, no
 * attributes. Float32 and float64 (activation.cuh); the results differ from the CPU kernel's only
 * where CUDA's math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(tanh_shrink, ic_noattrs, tanh_shrink_f32, tanh_shrink_f64)
