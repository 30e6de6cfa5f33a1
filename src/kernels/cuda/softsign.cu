/* softsign on the GPU: the formula softsign_f32 / softsign_f64 of cpu/activation.h, no attributes.
 * Float32 and float64 (activation.cuh); the results differ from the CPU kernel's only where CUDA's
 * math library rounds differently. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(softsign, ic_noattrs, softsign_f32, softsign_f64)
