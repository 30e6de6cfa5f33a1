/* sqrt on the GPU: Out = sqrt(X) (formula sqrt_f32 / sqrt_f64 in cpu/activation.h). */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(sqrt, ic_noattrs, sqrt_f32, sqrt_f64)
