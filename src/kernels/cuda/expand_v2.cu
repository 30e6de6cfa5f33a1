/* expand_v2 on the GPU: X broadcast to Out's dims, which the op's infer in cpu/expand_v2.c sets
 * from the attribute shape or the Shape / expand_shapes_tensor inputs (IC_SLOT_VALUE: on the
 * host). The copy is repeat.cuh's, bit for bit the CPU's. */
#include "kernels/cuda/repeat.cuh"

extern "C" ic_status ic_cuda_expand_v2(ic_kctx *c) { return ic_cuda_repeat(c); }
