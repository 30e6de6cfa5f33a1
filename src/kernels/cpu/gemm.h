/* Matrix products for the matmul family (mul, matmul, matmul_v2): one row-major GEMM through
 * OpenBLAS's CBLAS, with the degenerate sizes BLAS refuses handled here. Kernels call it and
 * make no threading decisions of their own; the executor sets OpenBLAS's thread count. */
#ifndef IC_KERNELS_CPU_GEMM_H
#define IC_KERNELS_CPU_GEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

/* One product C[m x n] = alpha * op(A) * op(B), all row-major, where op(A) is m x k (A is stored
 * k x m when trans_a) and op(B) is k x n (stored n x k when trans_b); lda, ldb and ldc are the
 * stored row lengths. */
typedef struct ic_gemm {
  ic_dtype dtype;   /* IC_FP32 or IC_FP64 */
  bool trans_a, trans_b;
  int64_t m, n, k;
  int64_t lda, ldb, ldc;
  double alpha;
} ic_gemm;

/* Whether every size of g fits BLAS's integer type; fails ctx with IC_ERR_UNSUPPORTED if not. */
ic_status ic_gemm_check(ic_kctx *c, const ic_gemm *g);
/* C = alpha * op(A) * op(B) (C is overwritten, never read). k == 0 gives zeros; m == 0 or
 * n == 0 does nothing. g must have passed ic_gemm_check. */
void ic_gemm_run(const ic_gemm *g, const void *a, const void *b, void *c);

/* Fail the reader with IC_ERR_UNSUPPORTED for attribute `name` ("is not 1 ..."), unless it has
 * already failed; returns r->st. */
ic_status ic_gemm_unsupported(ic_attr_reader *r, const char *name, const char *detail);
/* Refuse the oneDNN fuse attributes of matmul and matmul_v2 (fused_reshape_X/Y/Out,
 * fused_transpose_X/Y/Out) when they are not empty: they reshape and transpose the operands
 * inside the op, which icore does not do. Returns r->st. */
ic_status ic_gemm_refuse_fused(ic_attr_reader *r);

#endif
