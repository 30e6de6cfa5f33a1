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

template <typename U>
static ic_status launch(ic_kctx *c, ic_tensor *out, int64_t n, const ic_tensor *v) {
  fill_from_tensor<U><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
      (U *)out->data, n, v->data, v->dtype, out->dtype);
  return ic_cuda_launched(c, "fill_constant");
}

extern "C" ic_status ic_cuda_fill_constant(ic_kctx *c) {
  const fill_constant_attrs *a = (const fill_constant_attrs *)c->attrs;
  const ic_tensor *v = ic_in(c, IN_VALUE, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(out);
  const size_t es = ic_dtype_size(out->dtype);
  if (!v) return ic_cuda_fill_bits(c, out->data, es, n, ic_fill_bits(out->dtype, a->value));
  if (n == 0) return IC_OK;
  switch (es) {
    case 1: return launch<uint8_t>(c, out, n, v);
    case 2: return launch<uint16_t>(c, out, n, v);
    case 4: return launch<uint32_t>(c, out, n, v);
    default: return launch<uint64_t>(c, out, n, v);
  }
}
