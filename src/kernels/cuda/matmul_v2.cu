/* matmul_v2 on the GPU (see cpu/matmul_v2.c): batches that pair one to one, or with one side
 * a single matrix, are one strided-batched cuBLAS product; batch dims that broadcast against
 * each other ([2, 1] with [1, 3]) get device arrays of matrix pointers, filled by a kernel
 * with the CPU's index walk, for one pointer-array product. */
#include <cstring>

#include "kernels/cpu/matmul_v2.h"
#include "kernels/cuda/cuda_kit.cuh"
#include "kernels/cuda/cugemm.h"

/* Batch geometry for the pointer kernel, passed by value. */
typedef struct bgeom {
  int nb;
  int64_t ob[IC_MAX_RANK];             /* Out's batch dims */
  int64_t xstep[IC_MAX_RANK];          /* X matrices per step of Out's batch dim (0: broadcast) */
  int64_t ystep[IC_MAX_RANK];
  int64_t xs, ys, os;                  /* bytes per matrix */
} bgeom;

__global__ void fill_pointers(bgeom g, int64_t count, const char *x, const char *y, char *o,
                              const void **px, const void **py, void **po) {
  IC_CUDA_FOR(b, count) {
    int64_t rest = b, xo = 0, yo = 0;
    for (int i = g.nb - 1; i >= 0; i--) {
      const int64_t idx = rest % g.ob[i];
      rest /= g.ob[i];
      xo += idx * g.xstep[i];
      yo += idx * g.ystep[i];
    }
    px[b] = x + xo * g.xs;
    py[b] = y + yo * g.ys;
    po[b] = o + b * g.os;
  }
}

extern "C" ic_status ic_cuda_matmul_v2(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  if (x->dtype != IC_FP32 && x->dtype != IC_FP64) {
    return ic_kfail_in(c, 0, 0, "is %s, which the CUDA kernel does not multiply (the CPU "
                       "kernel does)", ic_dtype_name(x->dtype));
  }
  ic_matmul_v2_plan p;
  ic_status st = ic_matmul_v2_make_plan(c, &p);
  if (st) return st;
  if (p.ocount == 0) return IC_OK;
  ic_gemm g = p.g;
  const int64_t xs = p.g.m * p.g.k, ys = p.g.k * p.g.n, os = p.g.m * p.g.n; /* elements */
  if (p.ycount == 1 && p.xcount == p.ocount && !g.trans_a) {
    /* Every X matrix meets the same Y: one product with the batches stacked as rows. */
    g.m *= p.xcount;
    return ic_cugemm_strided(c, &g, x->data, 0, y->data, 0, out->data, 0, 1);
  }
  if ((p.xcount == p.ocount || p.xcount == 1) && (p.ycount == p.ocount || p.ycount == 1)) {
    /* Counts equal to Out's mean X's batch dims are Out's (none is 1 against a larger one). */
    return ic_cugemm_strided(c, &g, x->data, p.xcount == 1 ? 0 : xs, y->data,
                             p.ycount == 1 ? 0 : ys, out->data, os, p.ocount);
  }
  const size_t es = ic_dtype_size(x->dtype);
  if (g.k == 0) {
    /* Nothing to sum: Out is zeros, whatever the pairing. */
    return ic_cuda_check(c, cudaMemsetAsync(out->data, 0, (size_t)(p.ocount * os) * es,
                                          ic_cuda_stream(c)),
                       "cudaMemsetAsync of Out");
  }
  bgeom bg;
  memset(&bg, 0, sizeof bg);
  bg.nb = p.nb;
  int64_t xsz = 1, ysz = 1;
  for (int i = p.nb - 1; i >= 0; i--) {
    bg.ob[i] = p.ob[i];
    bg.xstep[i] = p.xb[i] == 1 ? 0 : xsz;
    bg.ystep[i] = p.yb[i] == 1 ? 0 : ysz;
    xsz *= p.xb[i];
    ysz *= p.yb[i];
  }
  bg.xs = xs * (int64_t)es;
  bg.ys = ys * (int64_t)es;
  bg.os = os * (int64_t)es;
  void *ptrs = NULL;
  if ((st = ic_cuda_scratch(c, 3 * (size_t)p.ocount * sizeof(void *), &ptrs))) return st;
  const void **px = (const void **)ptrs, **py = px + p.ocount;
  void **po = (void **)(py + p.ocount);
  fill_pointers<<<ic_cuda_blocks(p.ocount), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
      bg, p.ocount, (const char *)x->data, (const char *)y->data, (char *)out->data, px, py, po);
  st = ic_cuda_launched(c, "fill_pointers");
  if (!st) st = ic_cugemm_pointers(c, &g, px, py, po, p.ocount);
  return ic_cuda_scratch_free(c, ptrs, st);
}
