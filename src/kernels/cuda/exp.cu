/* exp on the GPU: Out = e^X (formula exp_f32 / exp_f64 in cpu/activation.h). */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(exp, ic_noattrs, exp_f32, exp_f64)
