/* erf on the GPU: the formula erf_f32 / erf_f64 of cpu/activation.h, no attributes. Float32 and
 * float64 (activation.cuh); the results differ from the CPU kernel's only where CUDA's math
 * library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(erf, ic_noattrs, erf_f32, erf_f64)
