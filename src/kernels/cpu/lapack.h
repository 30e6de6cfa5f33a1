/* The LAPACK routines the dense linear-algebra ops call (cholesky, cholesky_solve,
 * triangular_solve, solve, qr, lu, svd, eigh, eigvalsh, ...), as the Fortran symbols that
 * OpenBLAS (which icore links) exports: column-major matrices, every argument by pointer,
 * the hidden lengths of the character arguments last (gfortran's convention). The ops whose
 * results are unique (factors, solutions) factor float32 inputs in double and round the
 * results once; those whose vectors are unique only up to sign (svd, eigh, eigvalsh, eig,
 * and matrix_rank with them) run the float32 routine on float32 as Paddle does, since the
 * float32 and float64 routines may choose different signs for one input.
 * Plus helpers shared by those ops: column-major double copies of a tensor's matrices and
 * the broadcasting of batch dims as Paddle's MatrixGetBroadcastDims does. */
#ifndef IC_KERNELS_CPU_LAPACK_H
#define IC_KERNELS_CPU_LAPACK_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>

#include "kernels/kernel.h"

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info, size_t);
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
            const int *m, const int *n, const double *alpha, const double *a, const int *lda,
            double *b, const int *ldb, size_t, size_t, size_t, size_t);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info, size_t);
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda,
             const double *tau, double *work, const int *lwork, int *info);
void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s,
             double *u, const int *ldu, double *vt, const int *ldvt, double *work,
             const int *lwork, int *iwork, int *info, size_t);
void sgesdd_(const char *jobz, const int *m, const int *n, float *a, const int *lda, float *s,
             float *u, const int *ldu, float *vt, const int *ldvt, float *work,
             const int *lwork, int *iwork, int *info, size_t);
void ssyevd_(const char *jobz, const char *uplo, const int *n, float *a, const int *lda,
             float *w, float *work, const int *lwork, int *iwork, const int *liwork,
             int *info, size_t, size_t);
void sgeev_(const char *jobvl, const char *jobvr, const int *n, float *a, const int *lda,
            float *wr, float *wi, float *vl, const int *ldvl, float *vr, const int *ldvr,
            float *work, const int *lwork, int *info, size_t, size_t);
/* complex (c: complex64, z: complex128): a complex element is its (re, im) pair of reals */
void cgetrf_(const int *m, const int *n, float *a, const int *lda, int *ipiv, int *info);
void zgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void ctrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
            const int *m, const int *n, const float *alpha, const float *a, const int *lda,
            float *b, const int *ldb, size_t, size_t, size_t, size_t);
void ztrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
            const int *m, const int *n, const double *alpha, const double *a, const int *lda,
            double *b, const int *ldb, size_t, size_t, size_t, size_t);
void cgeev_(const char *jobvl, const char *jobvr, const int *n, float *a, const int *lda,
            float *w, float *vl, const int *ldvl, float *vr, const int *ldvr, float *work,
            const int *lwork, float *rwork, int *info, size_t, size_t);
void zgeev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda,
            double *w, double *vl, const int *ldvl, double *vr, const int *ldvr, double *work,
            const int *lwork, double *rwork, int *info, size_t, size_t);
void cgesdd_(const char *jobz, const int *m, const int *n, float *a, const int *lda, float *s,
             float *u, const int *ldu, float *vt, const int *ldvt, float *work,
             const int *lwork, float *rwork, int *iwork, int *info, size_t);
void zgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s,
             double *u, const int *ldu, double *vt, const int *ldvt, double *work,
             const int *lwork, double *rwork, int *iwork, int *info, size_t);
void cgeqrf_(const int *m, const int *n, float *a, const int *lda, float *tau, float *work,
             const int *lwork, int *info);
void zgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
void cungqr_(const int *m, const int *n, const int *k, float *a, const int *lda,
             const float *tau, float *work, const int *lwork, int *info);
void zungqr_(const int *m, const int *n, const int *k, double *a, const int *lda,
             const double *tau, double *work, const int *lwork, int *info);
void cheevd_(const char *jobz, const char *uplo, const int *n, float *a, const int *lda,
             float *w, float *work, const int *lwork, float *rwork, const int *lrwork,
             int *iwork, const int *liwork, int *info, size_t, size_t);
void zheevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
             double *w, double *work, const int *lwork, double *rwork, const int *lrwork,
             int *iwork, const int *liwork, int *info, size_t, size_t);
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
             double *w, double *work, const int *lwork, int *iwork, const int *liwork,
             int *info, size_t, size_t);
void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, double *work, const int *lwork,
            int *info, size_t);
void dgelsy_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b,
             const int *ldb, int *jpvt, const double *rcond, int *rank, double *work,
             const int *lwork, int *info);
void dgelsd_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b,
             const int *ldb, double *s, const double *rcond, int *rank, double *work,
             const int *lwork, int *iwork, int *info);
void dgelss_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b,
             const int *ldb, double *s, const double *rcond, int *rank, double *work,
             const int *lwork, int *info);
void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda,
            double *wr, double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr,
            double *work, const int *lwork, int *info, size_t, size_t);

/* The symmetric eigenproblem of the column-major n x n matrix a (float32 when f32, else
 * float64; only the triangle `uplo`, "L" or "U", is read) by LAPACK syevd: ascending
 * eigenvalues into w (a's type), and with vectors the orthonormal eigenvectors into a's
 * columns. Workspace from the allocator of c. Returns LAPACK's info (0: converged), or -1000
 * when out of memory (c->err set). */
static inline int ic_la_syevd(ic_kctx *c, bool f32, bool vectors, const char *uplo, int n,
                              void *a, void *w) {
  const int ld = n > 1 ? n : 1, query = -1;
  const char *jobz = vectors ? "V" : "N";
  int info = 0, iq = 0;
  double wq = 0;
  float wqf = 0;
  if (f32) {
    ssyevd_(jobz, uplo, &n, a, &ld, w, &wqf, &query, &iq, &query, &info, 1, 1);
    wq = wqf;
  } else {
    dsyevd_(jobz, uplo, &n, a, &ld, w, &wq, &query, &iq, &query, &info, 1, 1);
  }
  const int lwork = wq > 1 ? (int)wq : 1, liwork = iq > 1 ? iq : 1;
  ic_buffer *buf = ic_kscratch(c, sizeof(double) * (size_t)lwork + sizeof(int) * (size_t)liwork);
  if (!buf) return -1000;
  int *iwork = (int *)((double *)buf->data + lwork);
  if (f32) {
    ssyevd_(jobz, uplo, &n, a, &ld, w, buf->data, &lwork, iwork, &liwork, &info, 1, 1);
  } else {
    dsyevd_(jobz, uplo, &n, a, &ld, w, buf->data, &lwork, iwork, &liwork, &info, 1, 1);
  }
  ic_buffer_release(buf);
  return info;
}

/* ic_la_syevd for a Hermitian complex matrix a (complex64 when c64, else complex128):
 * LAPACK heevd, real ascending eigenvalues into w (float32 / float64). */
static inline int ic_la_heevd(ic_kctx *c, bool c64, bool vectors, const char *uplo, int n,
                              void *a, void *w) {
  const int ld = n > 1 ? n : 1, query = -1;
  const char *jobz = vectors ? "V" : "N";
  int info = 0, iq = 0;
  double wq[2] = {0, 0}, rq = 0;
  float wqf[2] = {0, 0}, rqf = 0;
  if (c64) {
    cheevd_(jobz, uplo, &n, a, &ld, w, wqf, &query, &rqf, &query, &iq, &query, &info, 1, 1);
    wq[0] = wqf[0];
    rq = rqf;
  } else {
    zheevd_(jobz, uplo, &n, a, &ld, w, wq, &query, &rq, &query, &iq, &query, &info, 1, 1);
  }
  const int lwork = wq[0] > 1 ? (int)wq[0] : 1, lrwork = rq > 1 ? (int)rq : 1;
  const int liwork = iq > 1 ? iq : 1;
  /* work: lwork complex128 slots (enough for complex64), rwork: lrwork doubles */
  ic_buffer *buf = ic_kscratch(c, sizeof(double) * (size_t)(2 * lwork + lrwork) +
                                      sizeof(int) * (size_t)liwork);
  if (!buf) return -1000;
  double *work = buf->data, *rwork = work + 2 * (size_t)lwork;
  int *iwork = (int *)(rwork + lrwork);
  if (c64) {
    cheevd_(jobz, uplo, &n, a, &ld, w, (float *)work, &lwork, (float *)rwork, &lrwork, iwork,
            &liwork, &info, 1, 1);
  } else {
    zheevd_(jobz, uplo, &n, a, &ld, w, work, &lwork, rwork, &lrwork, iwork, &liwork, &info, 1,
            1);
  }
  ic_buffer_release(buf);
  return info;
}

/* Matrix `index` (m x n, row-major) of tensor t into dst as a column-major m x n matrix of
 * t's own dtype (leading dimension m): float32, float64, complex64 or complex128. */
static inline void ic_la_load_cmt(const ic_tensor *t, int64_t index, int64_t m, int64_t n,
                                  void *dst) {
  const int64_t off = index * m * n;
  const size_t es = ic_dtype_size(t->dtype);
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = 0; j < n; j++) {
      const int64_t s = off + i * n + j, d = j * m + i;
      if (t->dtype == IC_FP32) ((float *)dst)[d] = ((const float *)t->data)[s];
      else if (t->dtype == IC_FP64) ((double *)dst)[d] = ((const double *)t->data)[s];
      else memcpy((char *)dst + es * (size_t)d, (const char *)t->data + es * (size_t)s, es);
    }
  }
}

/* The column-major m x n matrix src of t's dtype (leading dimension ld >= m) into matrix
 * `index` (m x n, row-major) of t. */
static inline void ic_la_store_cmt(ic_tensor *t, int64_t index, int64_t m, int64_t n,
                                   const void *src, int64_t ld) {
  const int64_t off = index * m * n;
  const size_t es = ic_dtype_size(t->dtype);
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = 0; j < n; j++) {
      const int64_t d = off + i * n + j, s = j * ld + i;
      if (t->dtype == IC_FP32) ((float *)t->data)[d] = ((const float *)src)[s];
      else if (t->dtype == IC_FP64) ((double *)t->data)[d] = ((const double *)src)[s];
      else memcpy((char *)t->data + es * (size_t)d, (const char *)src + es * (size_t)s, es);
    }
  }
}

/* Element k of a float32 (f32) or float64 buffer, as double. */
static inline double ic_la_at(const void *p, bool f32, int64_t k) {
  return f32 ? (double)((const float *)p)[k] : ((const double *)p)[k];
}

/* Matrix `index` (m x n, row-major) of float32/float64 tensor t into dst as a column-major
 * double m x n matrix (leading dimension m). */
static inline void ic_la_load_cm(const ic_tensor *t, int64_t index, int64_t m, int64_t n,
                                 double *dst) {
  const int64_t off = index * m * n;
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = 0; j < n; j++) {
      dst[j * m + i] = t->dtype == IC_FP32 ? (double)((const float *)t->data)[off + i * n + j]
                                           : ((const double *)t->data)[off + i * n + j];
    }
  }
}

/* The column-major double m x n matrix src (leading dimension ld >= m) into matrix `index`
 * (m x n, row-major) of float32/float64 tensor t, rounding once. */
static inline void ic_la_store_cm(ic_tensor *t, int64_t index, int64_t m, int64_t n,
                                  const double *src, int64_t ld) {
  const int64_t off = index * m * n;
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = 0; j < n; j++) {
      if (t->dtype == IC_FP32) ((float *)t->data)[off + i * n + j] = (float)src[j * ld + i];
      else ((double *)t->data)[off + i * n + j] = src[j * ld + i];
    }
  }
}

/* Element k of float32/float64 tensor t set to v (rounded once). */
static inline void ic_la_set(ic_tensor *t, int64_t k, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[k] = (float)v;
  else ((double *)t->data)[k] = v;
}

/* Fail (naming input slot s) when the matrices in the last two dims of input (s, 0) (or
 * the vector of a rank-1 input) have more than 2^31 - 1 elements: LAPACK's 32-bit indices
 * (n, lda and the offsets computed from them) cannot address them. */
static inline ic_status ic_la_check_size(ic_kctx *c, size_t s) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (!t || t->ndim < 1) return IC_OK;
  const int64_t rows = t->ndim >= 2 ? t->dims[t->ndim - 2] : 1, cols = t->dims[t->ndim - 1];
  if (rows > INT32_MAX || cols > INT32_MAX || (cols > 0 && rows > INT32_MAX / cols)) {
    return ic_kfail_in(c, s, 0, "has matrices of more than 2^31 - 1 elements, beyond "
                       "LAPACK's 32-bit indices");
  }
  return IC_OK;
}

/* Whether an m x n work matrix fits LAPACK's 32-bit indices. */
static inline bool ic_la_fits(int64_t m, int64_t n) {
  return m <= INT32_MAX && n <= INT32_MAX && (n == 0 || m <= INT32_MAX / n);
}

/* Batch broadcasting of two matrix operands: the batch dims (all but the last two) of x
 * and y broadcast numpy-style (aligned at the right; equal, or one of them 1). */
#define IC_LA_MAXRANK 16
typedef struct ic_la_bcast {
  int nb;                           /* rank of the broadcast batch */
  int64_t dims[IC_LA_MAXRANK];      /* its dims */
  int64_t xs[IC_LA_MAXRANK], ys[IC_LA_MAXRANK]; /* matrix strides of x and y per batch dim
                                                   (0 where broadcast) */
  int64_t count;                    /* number of matrices in the broadcast batch */
} ic_la_bcast;

/* Fill b from x's first xnb dims and y's first ynb dims; false when they do not broadcast
 * (or the rank is too large). */
static inline bool ic_la_bcast_init(ic_la_bcast *b, const int64_t *xd, int xnb,
                                    const int64_t *yd, int ynb) {
  const int nb = xnb > ynb ? xnb : ynb;
  b->nb = 0;
  b->count = 0;
  if (nb > IC_LA_MAXRANK) return false;
  b->nb = nb;
  int64_t xst = 1, yst = 1;
  b->count = 1;
  for (int k = nb - 1; k >= 0; k--) {
    const int xi = k - (nb - xnb), yi = k - (nb - ynb);
    const int64_t xv = xi >= 0 ? xd[xi] : 1, yv = yi >= 0 ? yd[yi] : 1;
    if (xv != yv && xv != 1 && yv != 1) return false;
    b->dims[k] = xv == 1 ? yv : xv;
    b->xs[k] = xv == 1 ? 0 : xst;
    b->ys[k] = yv == 1 ? 0 : yst;
    xst *= xv;
    yst *= yv;
    b->count *= b->dims[k];
  }
  return true;
}

/* The matrix indices of x and y for broadcast matrix i. */
static inline void ic_la_bcast_at(const ic_la_bcast *b, int64_t i, int64_t *xi, int64_t *yi) {
  int64_t x = 0, y = 0;
  for (int k = b->nb - 1; k >= 0; k--) {
    const int64_t d = i % b->dims[k];
    i /= b->dims[k];
    x += d * b->xs[k];
    y += d * b->ys[k];
  }
  *xi = x;
  *yi = y;
}

/* Describe dims for messages: "[2, 3, 4]" into buf. */
static inline const char *ic_la_dims(const ic_tensor *t, char *buf, size_t size) {
  size_t k = (size_t)snprintf(buf, size, "[");
  for (int i = 0; i < t->ndim && k < size; i++) {
    k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? ", " : "", (long long)t->dims[i]);
  }
  if (k < size) snprintf(buf + k, size - k, "]");
  return buf;
}

#endif
