/* fill_constant on the GPU: the value of ValueTensor (read on the device) or of the
 * attributes, converted to the output dtype exactly as the CPU kernel converts it
 * (ic_fill_bits in cpu/fill.h). */
#include "kernels/cuda/fill.cuh"

enum { IN_VALUE };

template <typename U>
__global__ void fill_from_tensor(U *__restrict__ p, int64_t n, const void *v, ic_dtype vdt,
                                 ic_dtype odt) {
  const U bits = (U)ic_fill_bits(odt, ic_fill_scalar_at(v, vdt));
  IC_CUDA_FOR(i, n) p[i] = bits;
}

extern "C" ic_status ic_cuda_fill_constant(ic_kctx *c) {
  const fill_constant_attrs *a = (const fill_constant_attrs *)c->attrs;
  const ic_tensor *v = ic_in(c, IN_VALUE, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(out);
  const size_t es = ic_dtype_size(out->dtype);
  if (!v) return ic_cuda_fill_bits(c, out->data, es, n, ic_fill_bits(out->dtype, a->value));
  if (n == 0) return IC_OK;
  cudaStream_t s = ic_cuda_stream(c);
  const unsigned blocks = ic_cuda_blocks(n);
  switch (es) {
    case 1: fill_from_tensor<uint8_t><<<blocks, IC_CUDA_THREADS, 0, s>>>((uint8_t *)out->data, n, v->data, v->dtype, out->dtype); break;
    case 2: fill_from_tensor<uint16_t><<<blocks, IC_CUDA_THREADS, 0, s>>>((uint16_t *)out->data, n, v->data, v->dtype, out->dtype); break;
    case 4: fill_from_tensor<uint32_t><<<blocks, IC_CUDA_THREADS, 0, s>>>((uint32_t *)out->data, n, v->data, v->dtype, out->dtype); break;
    default: fill_from_tensor<uint64_t><<<blocks, IC_CUDA_THREADS, 0, s>>>((uint64_t *)out->data, n, v->data, v->dtype, out->dtype); break;
  }
  return ic_cuda_launched(c, "fill_constant");
}
