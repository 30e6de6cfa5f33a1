/* tanh on the GPU: Out = tanh(X) (formula tanh_f32 / tanh_f64 in cpu/activation.h). */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(tanh, ic_noattrs, tanh_f32, tanh_f64)
