/* Row-major GEMM: fp32 through oneDNN's sgemm, fp64 through OpenBLAS's CBLAS. */
#include "kernels/cpu/gemm.h"

#include "kernels/cpu/gemv.h"

#include <cblas.h>
#include <dnnl.h>
#include <omp.h>
#include <limits.h>
#include <string.h>

/* OpenBLAS may be built with 32- or 64-bit integers. */
#define BLASINT_MAX (sizeof(blasint) >= 8 ? INT64_MAX : (int64_t)INT_MAX)

ic_status ic_gemm_check(ic_kctx *c, const ic_gemm *g) {
  const int64_t v[] = {g->m, g->n, g->k, g->lda, g->ldb, g->ldc};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    if (v[i] > BLASINT_MAX) {
      return ic_kfail(c, IC_ERR_UNSUPPORTED,
                      "matrix product of [%lld x %lld] by [%lld x %lld] exceeds BLAS's "
                      "integer range (%lld)",
                      (long long)g->m, (long long)g->k, (long long)g->k, (long long)g->n,
                      (long long)BLASINT_MAX);
    }
  }
  return IC_OK;
}

void ic_kernel_threads(const ic_kctx *ctx) {
  int n = ctx->env && ctx->env->intra_threads > 0 ? ctx->env->intra_threads : 1;
  if (omp_get_max_threads() != n) omp_set_num_threads(n);
}

/* fp32: column chunk ch of the product, one single-threaded sgemm (or GEMV) call. */
typedef struct gemm_chunks {
  const ic_gemm *g;
  const void *a, *b;
  void *c;
  int64_t chunk;
  bool gemv;
} gemm_chunks;

static void gemm_chunk(const gemm_chunks *k, int64_t ch) {
  const ic_gemm *g = k->g;
  int64_t n0 = ch * k->chunk;
  int64_t nn = g->n - n0 < k->chunk ? g->n - n0 : k->chunk;
  const float *bp = (const float *)k->b + (g->trans_b ? n0 * g->ldb : n0);
  if (k->gemv) {
    float *y = (float *)k->c + n0;
    if (g->beta == 0) memset(y, 0, (size_t)nn * sizeof *y);
    ic_gemv_acc_f32_ld(bp, g->ldb, (const float *)k->a, y, g->k, nn);
    return;
  }
  /* dnnl_sgemm checks its arguments; they were validated by ic_gemm_check and the callers'
   * shapes, so its status carries no information here. */
  (void)dnnl_sgemm(g->trans_a ? 'T' : 'N', g->trans_b ? 'T' : 'N', g->m, nn, g->k,
                   (float)g->alpha, k->a, g->lda, bp, g->ldb, (float)g->beta, (float *)k->c + n0,
                   g->ldc);
}

/* int32 / int64 (matmul_v2 only, alpha 1): a plain triple loop, each sum in the element type
 * with wrapping adds and products, as Paddle's CPU kernel accumulates in T. */
#define INT_GEMM(T, U)                                                                     \
  static void gemm_##T(const ic_gemm *g, const T *a, const T *b, T *c) {                   \
    for (int64_t i = 0; i < g->m; i++) {                                                   \
      for (int64_t j = 0; j < g->n; j++) {                                                 \
        U s = g->beta != 0 ? (U)c[i * g->ldc + j] : 0;                                     \
        for (int64_t p = 0; p < g->k; p++) {                                               \
          const T av = g->trans_a ? a[p * g->lda + i] : a[i * g->lda + p];                 \
          const T bv = g->trans_b ? b[j * g->ldb + p] : b[p * g->ldb + j];                 \
          s += (U)av * (U)bv;                                                              \
        }                                                                                  \
        c[i * g->ldc + j] = (T)s;                                                          \
      }                                                                                    \
    }                                                                                      \
  }
INT_GEMM(int32_t, uint32_t)
INT_GEMM(int64_t, uint64_t)

void ic_gemm_run(const ic_kctx *ctx, const ic_gemm *g, const void *a, const void *b, void *c) {
  if (g->m == 0 || g->n == 0) return;
  if (g->dtype == IC_INT32) {
    gemm_int32_t(g, a, b, c);
    return;
  }
  if (g->dtype == IC_INT64) {
    gemm_int64_t(g, a, b, c);
    return;
  }
  size_t es = g->dtype == IC_FP64 ? sizeof(double) : sizeof(float);
  if (g->k == 0) {
    /* An empty sum: C = beta * C. BLAS would also reject the zero leading dimensions. */
    for (int64_t i = 0; i < g->m; i++) {
      char *row = (char *)c + (size_t)(i * g->ldc) * es;
      if (g->beta == 0) {
        memset(row, 0, (size_t)g->n * es);
      } else {
        for (int64_t j = 0; j < g->n; j++) {
          if (g->dtype == IC_FP64) ((double *)row)[j] *= g->beta;
          else ((float *)row)[j] *= (float)g->beta;
        }
      }
    }
    return;
  }
  if (g->dtype == IC_FP64) {
    enum CBLAS_TRANSPOSE ta = g->trans_a ? CblasTrans : CblasNoTrans;
    enum CBLAS_TRANSPOSE tb = g->trans_b ? CblasTrans : CblasNoTrans;
    cblas_dgemm(CblasRowMajor, ta, tb, (blasint)g->m, (blasint)g->n, (blasint)g->k, g->alpha, a,
                (blasint)g->lda, b, (blasint)g->ldb, g->beta, c, (blasint)g->ldc);
    return;
  }
  /* Results must not depend on the thread count (every executor configuration gives the
   * same bits), and a multi-threaded sgemm may split the sums over K differently for each.
   * So the output's columns are cut into fixed chunks, each one single-threaded sgemm call,
   * and threads only share out the chunks. */
  const bool gemv = g->m == 1 && !g->trans_b && (!g->trans_a || g->lda == 1) &&
                    g->alpha == 1.0 && (g->beta == 0 || g->beta == 1) &&
                    (double)g->k * (double)g->n >= IC_GEMV_MIN_KN && ic_gemv_available();
  int64_t n_chunks = (g->n + IC_GEMM_CHUNK_N - 1) / IC_GEMM_CHUNK_N;
  if (n_chunks == 1 && g->n >= 32 &&
      2.0 * (double)g->m * (double)g->n * (double)g->k >= IC_GEMM_SPLIT_FLOPS) {
    n_chunks = 2;
  }
  const int64_t chunk = ((g->n + n_chunks - 1) / n_chunks + 15) / 16 * 16;
  n_chunks = (g->n + chunk - 1) / chunk;
  int threads = ctx ? ic_omp_threads(ctx->env) : 1;
  if (threads > n_chunks) threads = (int)n_chunks;
  /* Not worth waking a second thread for a small product. */
  if ((double)g->m * (double)g->n * (double)g->k < 2e5) threads = 1;
  const gemm_chunks k = {.g = g, .a = a, .b = b, .c = c, .chunk = chunk, .gemv = gemv};
  if (gemv) {
    /* Each thread one pass over its whole chunks at once (the GEMV streams rows of B; each
     * output's sum is its own, so the split changes no bit). */
    const gemm_chunks all = {.g = g, .a = a, .b = b, .c = c, .chunk = g->n, .gemv = true};
    if (threads <= 1) {
      gemm_chunk(&all, 0);
      return;
    }
#pragma omp parallel num_threads(threads)
    {
      const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
      const int64_t c0 = t * n_chunks / nt, c1 = (t + 1) * n_chunks / nt;
      const int64_t j0 = c0 * chunk, j1 = c1 * chunk < g->n ? c1 * chunk : g->n;
      if (j1 > j0) {
        const gemm_chunks part = {.g = g, .a = a, .b = (const float *)b + j0,
                                  .c = (float *)c + j0, .chunk = j1 - j0, .gemv = true};
        gemm_chunk(&part, 0);
      }
    }
    return;
  }
  if (threads <= 1) {
    /* Not even a team of one: libgomp ends every parallel region, an inactive one too, with
     * a futex wake-up (a system call), and rnn calls this once per time step. */
    int outer = omp_get_max_threads();
    if (outer != 1) omp_set_num_threads(1);
    for (int64_t ch = 0; ch < n_chunks; ch++) gemm_chunk(&k, ch);
    if (outer != 1) omp_set_num_threads(outer);
    return;
  }
  int outer = omp_get_max_threads();
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t ch = 0; ch < n_chunks; ch++) {
    if (omp_get_max_threads() != 1) omp_set_num_threads(1);
    gemm_chunk(&k, ch);
  }
  if (omp_get_max_threads() != outer) omp_set_num_threads(outer);
}

ic_status ic_gemm_unsupported(ic_attr_reader *r, const char *name, const char *detail) {
  if (r->st) return r->st;
  ic_ar_fail(r, name, "%s", detail);
  r->st = r->err->code = IC_ERR_UNSUPPORTED;
  return r->st;
}

ic_status ic_gemm_refuse_fused(ic_attr_reader *r) {
  static const char *const names[] = {"fused_reshape_X",   "fused_reshape_Y",
                                      "fused_reshape_Out", "fused_transpose_X",
                                      "fused_transpose_Y", "fused_transpose_Out"};
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !r->st; i++) {
    const int64_t *v;
    size_t n = 0;
    if (ic_ar_ints(r, names[i], false, &v, &n) && n > 0) {
      ic_gemm_unsupported(r, names[i], "is not empty (oneDNN fused reshape/transpose)");
    }
  }
  return r->st;
}

static double grad_get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

void ic_gemm_grad_accum(const ic_gemm *g, const ic_tensor *a, int64_t ao, const ic_tensor *b,
                        int64_t bo, const ic_tensor *dc, int64_t co, double *da, double *db) {
  const int64_t m = g->m, n = g->n, k = g->k, lda = g->lda, ldb = g->ldb;
  const bool ta = g->trans_a, tb = g->trans_b;
  for (int64_t i = 0; i < m; i++) {
    for (int64_t q = 0; q < k; q++) {
      const int64_t ae = ao + (ta ? q * lda + i : i * lda + q);
      double sa = 0;
      for (int64_t j = 0; j < n; j++) {
        const int64_t be = bo + (tb ? j * ldb + q : q * ldb + j);
        const double gv = grad_get(dc, co + i * n + j);
        if (da) sa += gv * grad_get(b, be);
        if (db) db[be] += g->alpha * grad_get(a, ae) * gv;
      }
      if (da) da[ae] += g->alpha * sa;
    }
  }
}

