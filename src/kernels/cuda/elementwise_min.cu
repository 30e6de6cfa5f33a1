/* elementwise_min on the GPU: Out = min(X, Y) with Paddle's broadcasting (see elementwise.cuh). */
#include "kernels/cuda/elementwise.cuh"

IC_CUDA_ELEMENTWISE(min)
