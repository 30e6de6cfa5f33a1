/* Filling device memory with one element, and scalar operands that live either in a device
 * tensor of one element or on the host (an attribute): shared by fill_constant,
 * fill_constant_batch_size_like, scale and clip on the GPU. */
#ifndef IC_KERNELS_CUDA_FILL_CUH
#define IC_KERNELS_CUDA_FILL_CUH

#include "kernels/cpu/fill.h"
#include "kernels/cuda/cuda_util.cuh"

/* A scalar operand: element 0 of device tensor data `p` of dtype `dt` when p is not NULL
 * (read on the device: the host must not touch device memory, nor wait for it), else the
 * host value `host`. */
struct ic_cuda_scalar {
  const void *p;
  ic_dtype dt;
  ic_fill_scalar host;
};

static __device__ inline ic_fill_scalar ic_cuda_scalar_value(const ic_cuda_scalar &s) {
  return s.p ? ic_fill_scalar_at(s.p, s.dt) : s.host;
}

/* The operand of input slot `slot` (its one element) if present, else `host`. */
static inline ic_cuda_scalar ic_cuda_scalar_of(const ic_kctx *c, size_t slot,
                                               ic_fill_scalar host) {
  const ic_tensor *t = ic_in(c, slot, 0);
  ic_cuda_scalar s = {t ? t->data : NULL, t ? t->dtype : IC_FP32, host};
  return s;
}

template <typename U>
__global__ void ic_cuda_fill_kernel(U *__restrict__ p, int64_t n, U v) {
  IC_CUDA_FOR(i, n) p[i] = v;
}

template <typename U>
static inline ic_status ic_cuda_fill_as(ic_kctx *c, void *data, int64_t n, uint64_t bits) {
  ic_cuda_fill_kernel<U><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
      (U *)data, n, (U)bits);
  return ic_cuda_launched(c, c->def->name);
}

/* n elements of es bytes (1, 2, 4 or 8) at device address data := the low bytes of bits. */
static inline ic_status ic_cuda_fill_bits(ic_kctx *c, void *data, size_t es, int64_t n,
                                          uint64_t bits) {
  if (n <= 0) return IC_OK;
  switch (es) {
    case 1: return ic_cuda_fill_as<uint8_t>(c, data, n, bits);
    case 2: return ic_cuda_fill_as<uint16_t>(c, data, n, bits);
    case 4: return ic_cuda_fill_as<uint32_t>(c, data, n, bits);
    case 8: return ic_cuda_fill_as<uint64_t>(c, data, n, bits);
    default:
      return ic_kfail(c, IC_ERR_INTERNAL, "%s: no fill for %zu-byte elements", c->def->name, es);
  }
}

#endif
