/* Row-major GEMM through cuBLAS; see cugemm.h. */
#include "kernels/cuda/cugemm.h"

#include <climits>

#include "kernels/cuda/cuda_kit.cuh"

/* C = beta * C for the k == 0 products, over every matrix of the batch (ldc >= n). */
template <typename T>
__global__ void scale_c(T *cm, int64_t count, int64_t m, int64_t n, int64_t ldc,
                        int64_t stride_c, T beta) {
  IC_CUDA_FOR(i, count * m * n) {
    const int64_t j = i % n, r = (i / n) % m, b = i / (n * m);
    T *p = cm + b * stride_c + r * ldc + j;
    *p = beta == (T)0 ? (T)0 : *p * beta;
  }
}

static ic_status check_sizes(ic_kctx *c, const ic_gemm *g, int64_t count) {
  const int64_t v[] = {g->m, g->n, g->k, g->lda, g->ldb, g->ldc, count};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    if (v[i] > INT_MAX) {
      return ic_kfail(c, IC_ERR_UNSUPPORTED,
                      "matrix product of %lld x [%lld x %lld] by [%lld x %lld] exceeds cuBLAS's "
                      "integer range (%d)",
                      (long long)count, (long long)g->m, (long long)g->k, (long long)g->k,
                      (long long)g->n, INT_MAX);
    }
  }
  if (g->dtype != IC_FP32 && g->dtype != IC_FP64) {
    return ic_kfail(c, IC_ERR_INTERNAL, "cuBLAS product of %s: only float32 and float64",
                    ic_dtype_name(g->dtype));
  }
  return IC_OK;
}

/* The empty-sum case; true when it applied (st set). */
static bool empty_k(ic_kctx *c, const ic_gemm *g, void *cm, int64_t stride_c, int64_t count,
                    ic_status *st) {
  if (g->k != 0) return false;
  cudaStream_t s = ic_cuda_stream(c);
  const int64_t n = count * g->m * g->n;
  if (g->dtype == IC_FP64) {
    scale_c<double><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, s>>>(
        (double *)cm, count, g->m, g->n, g->ldc, stride_c, g->beta);
  } else {
    scale_c<float><<<ic_cuda_blocks(n), IC_CUDA_THREADS, 0, s>>>(
        (float *)cm, count, g->m, g->n, g->ldc, stride_c, (float)g->beta);
  }
  *st = ic_cuda_launched(c, "scale_c");
  return true;
}

/* cuBLAS's view of the row-major product: C^T (n x m) = op(B)^T (n x k) * op(A)^T (k x m). */
typedef struct colmajor {
  cublasOperation_t ta, tb;  /* applied to B's and A's memory */
  cudaDataType_t type;
  cublasComputeType_t compute;
  float alpha32, beta32;
  double alpha64, beta64;
  const void *alpha, *beta;
} colmajor;

static void to_colmajor(const ic_gemm *g, colmajor *cm) {
  cm->ta = g->trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  cm->tb = g->trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (g->dtype == IC_FP64) {
    cm->type = CUDA_R_64F;
    cm->compute = CUBLAS_COMPUTE_64F;
    cm->alpha64 = g->alpha;
    cm->beta64 = g->beta;
    cm->alpha = &cm->alpha64;
    cm->beta = &cm->beta64;
  } else {
    cm->type = CUDA_R_32F;
    cm->compute = CUBLAS_COMPUTE_32F;
    cm->alpha32 = (float)g->alpha;
    cm->beta32 = (float)g->beta;
    cm->alpha = &cm->alpha32;
    cm->beta = &cm->beta32;
  }
}

ic_status ic_cugemm_strided(ic_kctx *c, const ic_gemm *g, const void *a, int64_t stride_a,
                            const void *b, int64_t stride_b, void *cm, int64_t stride_c,
                            int64_t count) {
  ic_status st;
  if ((st = ic_cuda_need_env(c, true))) return st;
  if (g->m == 0 || g->n == 0 || count == 0) return IC_OK;
  if ((st = check_sizes(c, g, count))) return st;
  if (empty_k(c, g, cm, stride_c, count, &st)) return st;
  colmajor v;
  to_colmajor(g, &v);
  /* Scalars are read from host memory (the handle's default pointer mode). */
  cublasStatus_t e = cublasGemmStridedBatchedEx(
      ic_cuda_blas(c), v.ta, v.tb, (int)g->n, (int)g->m, (int)g->k, v.alpha, b, v.type,
      (int)g->ldb, (long long)stride_b, a, v.type, (int)g->lda, (long long)stride_a, v.beta, cm,
      v.type, (int)g->ldc, (long long)stride_c, (int)count, v.compute, CUBLAS_GEMM_DEFAULT);
  return ic_cuda_check_blas(c, e, "cublasGemmStridedBatchedEx");
}

ic_status ic_cugemm_pointers(ic_kctx *c, const ic_gemm *g, const void *const *a,
                             const void *const *b, void *const *cm, int64_t count) {
  ic_status st;
  if ((st = ic_cuda_need_env(c, true))) return st;
  if (g->m == 0 || g->n == 0 || count == 0) return IC_OK;
  if ((st = check_sizes(c, g, count))) return st;
  if (g->k == 0) {
    return ic_kfail(c, IC_ERR_INTERNAL, "pointer-array product with k == 0 (callers handle it)");
  }
  colmajor v;
  to_colmajor(g, &v);
  cublasStatus_t e = cublasGemmBatchedEx(
      ic_cuda_blas(c), v.ta, v.tb, (int)g->n, (int)g->m, (int)g->k, v.alpha, b, v.type,
      (int)g->ldb, a, v.type, (int)g->lda, v.beta, cm, v.type, (int)g->ldc, (int)count, v.compute,
      CUBLAS_GEMM_DEFAULT);
  return ic_cuda_check_blas(c, e, "cublasGemmBatchedEx");
}
