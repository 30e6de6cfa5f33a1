/* mul on the GPU: one cuBLAS product of the flattened X and Y (see cpu/mul.c). */
#include "kernels/cpu/mul.h"
#include "kernels/cuda/cuda_kit.cuh"
#include "kernels/cuda/cugemm.h"

static int64_t prod(const int64_t *d, int64_t from, int64_t to) {
  int64_t p = 1;
  for (int64_t i = from; i < to; i++) p *= d[i];
  return p;
}

extern "C" ic_status ic_cuda_mul(ic_kctx *c) {
  const mul_attrs *a = (const mul_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  const int64_t m = prod(x->dims, 0, a->x_ncd), k = prod(x->dims, a->x_ncd, x->ndim);
  const int64_t n = prod(y->dims, a->y_ncd, y->ndim);
  ic_gemm g = {};
  g.dtype = x->dtype;
  g.m = m;
  g.n = n;
  g.k = k;
  g.lda = k;
  g.ldb = n;
  g.ldc = n;
  g.alpha = 1.0;
  return ic_cugemm_strided(c, &g, x->data, 0, y->data, 0, ic_out(c, 0, 0)->data, 0, 1);
}
