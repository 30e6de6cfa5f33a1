/* log1p on the GPU: the formula log1p_f32 / log1p_f64 of cpu/activation.h, no attributes. Float32
 * and float64 (activation.cuh); the results differ from the CPU kernel's only where CUDA's math
 * library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(log1p, ic_noattrs, log1p_f32, log1p_f64)
