/* elementwise_mul on the GPU: Out = X * Y with Paddle's broadcasting (see elementwise.cuh). */
#include "kernels/cuda/elementwise.cuh"

IC_CUDA_ELEMENTWISE_BOOL(mul, a && b)
