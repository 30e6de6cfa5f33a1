/* relu on the GPU: Out = max(X, 0) (formula relu_f32 / relu_f64 in cpu/activation.h). */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(relu, ic_noattrs, relu_f32, relu_f64)
