/* matmul (v1) on the GPU: Paddle's v1 batching (equal batch counts, or one side a plain
 * matrix that meets every batch) as one strided-batched cuBLAS product (see cpu/matmul.c). */
#include "kernels/cpu/matmul.h"
#include "kernels/cuda/cuda_kit.cuh"
#include "kernels/cuda/cugemm.h"

extern "C" ic_status ic_cuda_matmul(ic_kctx *c) {
  const matmul_attrs *a = (const matmul_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  const mdesc dx = describe(x, true, a->trans_x), dy = describe(y, false, a->trans_y);
  int64_t batch = dx.batched ? dx.batch : dy.batched ? dy.batch : 1;
  ic_gemm g = {};
  g.dtype = x->dtype;
  g.trans_a = a->trans_x;
  g.trans_b = a->trans_y;
  g.m = dx.height;
  g.n = dy.width;
  g.k = dx.width;
  g.lda = dx.cols;
  g.ldb = dy.cols;
  g.ldc = dy.width;
  g.alpha = a->alpha;
  if (dx.batched && !dy.batched && !a->trans_x) {
    /* Every X matrix meets the same Y: one product with the batches stacked as rows. */
    g.m *= batch;
    batch = 1;
  }
  const int64_t sx = dx.batched ? dx.rows * dx.cols : 0;
  const int64_t sy = dy.batched ? dy.rows * dy.cols : 0;
  return ic_cugemm_strided(c, &g, x->data, sx, y->data, sy, ic_out(c, 0, 0)->data, g.m * g.n,
                           batch);
}
