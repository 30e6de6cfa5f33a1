/* elementwise_max on the GPU: Out = max(X, Y) with Paddle's broadcasting (see elementwise.cuh). */
#include "kernels/cuda/elementwise.cuh"

IC_CUDA_ELEMENTWISE(max)
