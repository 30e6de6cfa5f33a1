/* concat on the GPU: each input moves as one strided box copy (one contiguous chunk per
 * index of the axes before `axis`), as in cpu/concat.c. The axis comes from the attribute or
 * AxisTensor, which stays on the host (IC_SLOT_VALUE). */
#include "kernels/cpu/shapeops.h"
#include "kernels/cuda/copy.cuh"

extern "C" ic_status ic_cuda_concat(ic_kctx *c) {
  const ic_tensor *x0 = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int axis = ic_concat_axis(c, x0->ndim);
  if (axis < 0) return c->err->code;
  const size_t es = ic_dtype_size(x0->dtype);
  const int64_t outer = ic_numel(axis, x0->dims);
  const int64_t inner = ic_numel(x0->ndim - axis - 1, x0->dims + axis + 1);
  const int64_t out_row = out->dims[axis] * inner;
  int64_t off = 0;
  for (size_t i = 0; i < c->in[0].n; i++) {
    const ic_tensor *xi = ic_in(c, 0, i);
    const int64_t chunk = xi->dims[axis] * inner;
    const int64_t dims[2] = {outer, chunk}, sdst[2] = {out_row, 1}, ssrc[2] = {chunk, 1};
    ic_status st = ic_cuda_copy_box(c, (char *)out->data + (size_t)off * es, xi->data, 2, dims,
                                    sdst, ssrc, es);
    if (st) return st;
    off += chunk;
  }
  return IC_OK;
}
