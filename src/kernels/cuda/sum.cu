/* sum (add_n) on the GPU: Out = X[0] + X[1] + ... per element, left to right in X's own type
 * as the CPU kernel adds (so float results are bitwise the CPU's; integers wrap). Inputs go
 * to the kernel in chunks of pointers passed by value; later chunks add onto Out. */
#include "kernels/cuda/cuda_kit.cuh"

#define CHUNK 16

typedef struct chunk {
  const void *x[CHUNK];
  int n;
} chunk;

/* T is the stored type and U the one additions happen in (unsigned for integers: wrapping
 * without undefined behaviour). */
template <typename T, typename U>
__global__ void add_chunk(T *out, chunk ch, bool first, int64_t n) {
  IC_CUDA_FOR(k, n) {
    int j = 0;
    U acc;
    if (first) {
      acc = (U)((const T *)ch.x[0])[k];
      j = 1;
    } else {
      acc = (U)out[k];
    }
    for (; j < ch.n; j++) acc = (U)(acc + (U)((const T *)ch.x[j])[k]);
    out[k] = (T)acc;
  }
}

template <typename T, typename U>
static ic_status run(ic_kctx *c, int64_t n) {
  const size_t nin = c->in[0].n;
  T *out = (T *)ic_out(c, 0, 0)->data;
  for (size_t i = 0; i < nin; i += CHUNK) {
    chunk ch = {};
    for (size_t j = i; j < nin && j < i + CHUNK; j++) ch.x[ch.n++] = ic_in(c, 0, j)->data;
    add_chunk<T, U><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(out, ch, i == 0,
                                                                                  n);
    ic_status st = ic_cuda_launched(c, "add_chunk");
    if (st) return st;
  }
  return IC_OK;
}

extern "C" ic_status ic_cuda_sum(ic_kctx *c) {
  const ic_tensor *x0 = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_status st = ic_cuda_need_env(c, false);
  if (st) return st;
  const int64_t n = ic_numel(x0->ndim, x0->dims);
  if (n == 0) return IC_OK;
  if (c->in[0].n == 1) {
    return ic_cuda_check(c,
                       cudaMemcpyAsync(out->data, x0->data, (size_t)n * ic_dtype_size(x0->dtype),
                                       cudaMemcpyDeviceToDevice, ic_cuda_stream(c)),
                       "cudaMemcpyAsync of X[0] to Out");
  }
  switch (x0->dtype) {
    case IC_FP32: return run<float, float>(c, n);
    case IC_FP64: return run<double, double>(c, n);
    case IC_INT32: return run<int32_t, uint32_t>(c, n);
    default: return run<int64_t, uint64_t>(c, n);
  }
}
