/* slice on the GPU: the window planned on the host as on the CPU (ic_slice_plan_of; starts
 * and ends tensors stay on the host, IC_SLOT_VALUE), then one strided box copy: for every
 * index of the dims before the innermost sliced one, one contiguous run holding that dim's
 * window times every dim after it. */
#include "kernels/cpu/shapeops.h"
#include "kernels/cuda/copy.cuh"

extern "C" ic_status ic_cuda_slice(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_slice_plan s;
  ic_status st = ic_slice_plan_of(c, &s);
  if (st) return st;
  const size_t es = ic_dtype_size(x->dtype);
  const int rank = x->ndim;
  const int64_t n_out = ic_numel(rank, s.len);
  if (n_out == 0) return IC_OK;
  int k = rank - 1;
  while (k >= 0 && s.len[k] == x->dims[k]) k--;
  if (k < 0) {
    return ic_cuda_check(c, cudaMemcpyAsync(out->data, x->data, (size_t)n_out * es,
                                            cudaMemcpyDeviceToDevice, ic_cuda_stream(c)),
                         "slice: cudaMemcpyAsync");
  }
  int64_t is[IC_MAX_RANK], os[IC_MAX_RANK];
  is[rank - 1] = os[rank - 1] = 1;
  for (int i = rank - 2; i >= 0; i--) {
    is[i] = is[i + 1] * x->dims[i + 1];
    os[i] = os[i + 1] * s.len[i + 1];
  }
  int64_t base = 0;
  for (int i = 0; i <= k; i++) base += s.start[i] * is[i];
  int64_t dims[IC_MAX_RANK], sdst[IC_MAX_RANK], ssrc[IC_MAX_RANK];
  for (int i = 0; i < k; i++) {
    dims[i] = s.len[i];
    sdst[i] = os[i];
    ssrc[i] = is[i];
  }
  dims[k] = s.len[k] * is[k]; /* the contiguous run */
  sdst[k] = ssrc[k] = 1;
  return ic_cuda_copy_box(c, out->data, (const char *)x->data + (size_t)base * es, k + 1, dims,
                          sdst, ssrc, es);
}
