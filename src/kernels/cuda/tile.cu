/* tile on the GPU: X tiled to Out's dims, which the op's infer in cpu/tile.c sets from
 * repeat_times or the RepeatTimes / repeat_times_tensor inputs (IC_SLOT_VALUE: on the host). The
 * copy is repeat.cuh's, bit for bit the CPU's. */
#include "kernels/cuda/repeat.cuh"

extern "C" ic_status ic_cuda_tile(ic_kctx *c) { return ic_cuda_repeat(c); }
