/* split on the GPU: each output is one strided box copy out of X (one contiguous chunk per
 * index of the axes before `axis`), as in cpu/split.c; the pieces' sizes are the outputs'
 * dims from infer. AxisTensor and SectionsTensorList stay on the host (IC_SLOT_VALUE). */
#include "kernels/cpu/shapeops.h"
#include "kernels/cuda/copy.cuh"

extern "C" ic_status ic_cuda_split(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  const int axis = ic_split_axis(c, x->ndim);
  if (axis < 0) return c->err->code;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t outer = ic_numel(axis, x->dims);
  const int64_t inner = ic_numel(x->ndim - axis - 1, x->dims + axis + 1);
  const int64_t in_row = x->dims[axis] * inner;
  int64_t off = 0;
  for (size_t k = 0; k < c->out[0].n; k++) {
    ic_tensor *o = ic_out(c, 0, k);
    const int64_t chunk = o->dims[axis] * inner;
    const int64_t dims[2] = {outer, chunk}, sdst[2] = {chunk, 1}, ssrc[2] = {in_row, 1};
    ic_status st = ic_cuda_copy_box(c, o->data, (const char *)x->data + (size_t)off * es, 2,
                                    dims, sdst, ssrc, es);
    if (st) return st;
    off += chunk;
  }
  return IC_OK;
}
