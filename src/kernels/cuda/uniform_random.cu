/* uniform_random on the GPU: the CPU kernel's values (cpu/uniform_random.c) for the same
 * seed: element i is min + u * (max - min) with u from word i % 4 of Philox block i / 4, in
 * the output's precision (float for float16 and bfloat16), then the diagonal elements
 * i * (diag_step + 1), i < diag_num, set to diag_val (the same element can only be one or
 * the other, so one pass writes both). */
#include "kernels/cpu/fill.h"
#include "kernels/cuda/random.cuh"

template <typename T, typename U, typename Store>
__global__ void uniform_kernel(T *__restrict__ p, int64_t n, uint64_t key, U lo, U span,
                               int64_t diag_num, int64_t diag_step, float diag_val,
                               Store store) {
  IC_CUDA_FOR(b, ic_philox_blocks(n)) {
    const int64_t i = b * 4;
    const ic_philox4 r = ic_philox_block(key, (uint64_t)i);
    for (int j = 0; j < 4 && i + j < n; j++) {
      const int64_t k = i + j;
      const bool diag = diag_num > 0 && k % (diag_step + 1) == 0 && k / (diag_step + 1) < diag_num;
      const U v = lo + (U)ic_philox_u24(r.v[j]) * span;
      p[k] = diag ? store((U)diag_val) : store(v);
    }
  }
}

extern "C" ic_status ic_cuda_uniform_random(ic_kctx *c) {
  const uniform_random_attrs *a = (const uniform_random_attrs *)c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(o);
  if (n == 0) return IC_OK;
  const uint64_t key = ic_philox_key(a->seed, c->env->seed, c->op_key);
  const unsigned blocks = ic_cuda_blocks(ic_philox_blocks(n));
  cudaStream_t s = ic_cuda_stream(c);
  const float lo = a->min, span = a->max - a->min;
  switch (o->dtype) {
    case IC_FP64:
      uniform_kernel<double, double, ic_store_same><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (double *)o->data, n, key, (double)a->min, (double)a->max - a->min, a->diag_num,
          a->diag_step, a->diag_val, ic_store_same());
      break;
    case IC_FP16:
      uniform_kernel<uint16_t, float, ic_store_f16><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (uint16_t *)o->data, n, key, lo, span, a->diag_num, a->diag_step, a->diag_val,
          ic_store_f16());
      break;
    case IC_BF16:
      uniform_kernel<uint16_t, float, ic_store_bf16><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (uint16_t *)o->data, n, key, lo, span, a->diag_num, a->diag_step, a->diag_val,
          ic_store_bf16());
      break;
    default:
      uniform_kernel<float, float, ic_store_same><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          (float *)o->data, n, key, lo, span, a->diag_num, a->diag_step, a->diag_val,
          ic_store_same());
      break;
  }
  return ic_cuda_launched(c, "uniform_random");
}
