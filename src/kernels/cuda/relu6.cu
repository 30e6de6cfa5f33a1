/* relu6 on the GPU: the formula relu6_f32 / relu6_f64 of cpu/activation.h with the
 * attributes cpu/relu6.c parses. */
#include "kernels/cuda/activation.cuh"

IC_CUDA_ACTIVATION(relu6, relu6_attrs, relu6_f32, relu6_f64)
