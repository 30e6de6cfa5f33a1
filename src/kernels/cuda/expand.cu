/* expand on the GPU: X tiled to Out's dims (X's dims times expand_times), which the op's infer in
 * cpu/expand.c sets from the attribute or the ExpandTimes / expand_times_tensor inputs
 * (IC_SLOT_VALUE: on the host). The copy is repeat.cuh's, bit for bit the CPU's. */
#include "kernels/cuda/repeat.cuh"

extern "C" ic_status ic_cuda_expand(ic_kctx *c) { return ic_cuda_repeat(c); }
