/* elementwise_mod on the GPU: Out = X % Y (the divisor's sign, Python's semantics) with
 * Paddle's broadcasting, the scalar functions of the CPU kernel (ic_ew_mod_* in
 * cpu/elementwise.h; see elementwise.cuh). An integer zero divisor gives 0 here (the CPU
 * kernel fails first). */
#include "kernels/cuda/elementwise.cuh"

IC_CUDA_ELEMENTWISE(mod)
