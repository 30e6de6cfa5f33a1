/* fill_constant_batch_size_like on the GPU: the attribute value converted on the host as the
 * CPU kernel converts it (ic_fill_cast_bits), then one fill. Input is read for its dims
 * only, by infer. */
#include "kernels/cuda/fill.cuh"

extern "C" ic_status ic_cuda_fill_constant_batch_size_like(ic_kctx *c) {
  const fcbsl_attrs *a = (const fcbsl_attrs *)c->attrs;
  ic_tensor *out = ic_out(c, 0, 0);
  return ic_cuda_fill_bits(c, out->data, ic_dtype_size(out->dtype), ic_tensor_numel_(out),
                           ic_fill_cast_bits(a->dtype, a->value));
}
