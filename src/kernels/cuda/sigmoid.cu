/* sigmoid on the GPU: Out = 1 / (1 + exp(-X)) (formula sigmoid_f32 / sigmoid_f64 in cpu/activation.h). */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(sigmoid, ic_noattrs, sigmoid_f32, sigmoid_f64)
