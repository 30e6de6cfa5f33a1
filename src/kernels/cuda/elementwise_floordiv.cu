/* elementwise_floordiv on the GPU: Out = X // Y (rounding toward -inf, Python's semantics)
 * with Paddle's broadcasting, the scalar functions of the CPU kernel (ic_ew_floordiv_* in
 * cpu/elementwise.h; see elementwise.cuh). An integer zero divisor gives 0 here (the CPU
 * kernel fails first). */
#include "kernels/cuda/elementwise.cuh"

IC_CUDA_ELEMENTWISE(floordiv)
