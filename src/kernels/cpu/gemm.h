/* Matrix products for the matmul family (mul, matmul, matmul_v2) and rnn: one row-major GEMM,
 * with the degenerate sizes BLAS refuses handled here. fp32 goes through oneDNN's sgemm, which
 * measured faster than OpenBLAS 0.3.21 at every shape icore's models use (4.5x on batch-1
 * GEMV shapes; docs/DESIGN.md has the table) and whose OpenMP threads follow the calling
 * thread's setting, so each kernel uses exactly ctx->env->intra_threads threads with no
 * process-wide state. fp64 goes through OpenBLAS's cblas_dgemm. */
#ifndef IC_KERNELS_CPU_GEMM_H
#define IC_KERNELS_CPU_GEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One product C[m x n] = alpha * op(A) * op(B), all row-major, where op(A) is m x k (A is stored
 * k x m when trans_a) and op(B) is k x n (stored n x k when trans_b); lda, ldb and ldc are the
 * stored row lengths. */
typedef struct ic_gemm {
  ic_dtype dtype;   /* IC_FP32 or IC_FP64; IC_INT32 / IC_INT64 with alpha 1 (a plain loop) */
  bool trans_a, trans_b;
  int64_t m, n, k;
  int64_t lda, ldb, ldc;
  double alpha;
  double beta;      /* C = alpha * op(A) * op(B) + beta * C; 0 means C is not read */
} ic_gemm;

/* Output columns per single-threaded sgemm call: at most IC_GEMM_CHUNK_N, the columns split
 * evenly (in multiples of 16) over the fewest chunks that allow, and over at least two when
 * the product has IC_GEMM_SPLIT_FLOPS or more (worth sharing with a second thread). A function
 * of the shape alone, so that results do not depend on how many threads share the calls. */
#define IC_GEMM_CHUNK_N 256
#define IC_GEMM_SPLIT_FLOPS 1e6

/* A single-row product (m = 1, B not transposed, alpha 1, beta 0 or 1) with k * n at least
 * this runs as ic_gemv_acc_f32 over each chunk instead of sgemm: a weight matrix of 4 MiB
 * or more comes from memory, where the GEMV's one pass over B was faster (MobileNetV2's
 * 1280 x 1000 classifier: see docs/DESIGN.md "Matrix products"). */
#define IC_GEMV_MIN_KN (1 << 20)

/* Whether every size of g fits BLAS's integer type; fails ctx with IC_ERR_UNSUPPORTED if not. */
ic_status ic_gemm_check(ic_kctx *c, const ic_gemm *g);
/* C = alpha * op(A) * op(B) + beta * C (with beta 0, C is never read). k == 0 scales C by beta;
 * m == 0 or n == 0 does nothing. Uses ctx->env->intra_threads threads. g must have passed
 * ic_gemm_check. */
void ic_gemm_run(const ic_kctx *ctx, const ic_gemm *g, const void *a, const void *b, void *c);
/* The threads a kernel may use inside itself, applied to the calling thread's OpenMP setting
 * (oneDNN's primitives and sgemm follow it). */
void ic_kernel_threads(const ic_kctx *ctx);

/* Fail the reader with IC_ERR_UNSUPPORTED for attribute `name` ("is not 1 ..."), unless it has
 * already failed; returns r->st. */
ic_status ic_gemm_unsupported(ic_attr_reader *r, const char *name, const char *detail);
/* Refuse the oneDNN fuse attributes of matmul and matmul_v2 (fused_reshape_X/Y/Out,
 * fused_transpose_X/Y/Out) when they are not empty: they reshape and transpose the operands
 * inside the op, which icore does not do. Returns r->st. */
ic_status ic_gemm_refuse_fused(ic_attr_reader *r);

/* The gradients of one product C = alpha * op(A) * op(B) (g's trans_a, trans_b, m, n, k, lda,
 * ldb and alpha; A at element ao of a, B at bo of b) given dC at element co of dc [m x n],
 * for matmul_grad and matmul_v2_grad: d op(A) = alpha * dC op(B)^T and d op(B) = alpha *
 * op(A)^T dC, stored back transposed where op transposed, are added in double to da and db
 * (A's and B's element indices; either may be NULL). float32 or float64 tensors. */
void ic_gemm_grad_accum(const ic_gemm *g, const ic_tensor *a, int64_t ao, const ic_tensor *b,
                        int64_t bo, const ic_tensor *dc, int64_t co, double *da, double *db);

#ifdef __cplusplus
}
#endif

#endif
