/* The LAPACK routines the dense linear-algebra ops call (cholesky, cholesky_solve,
 * triangular_solve, solve, qr, lu, svd, eigh, eigvalsh, ...), as the Fortran symbols that
 * OpenBLAS (which icore links) exports: column-major matrices, every argument by pointer,
 * the hidden lengths of the character arguments last (gfortran's convention). Only the
 * double routines: the ops factor float32 inputs in double and round the results once.
 * Plus helpers shared by those ops: column-major double copies of a tensor's matrices and
 * the broadcasting of batch dims as Paddle's MatrixGetBroadcastDims does. */
#ifndef IC_KERNELS_CPU_LAPACK_H
#define IC_KERNELS_CPU_LAPACK_H

#include <stddef.h>
#include <stdio.h>
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
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
             double *w, double *work, const int *lwork, int *iwork, const int *liwork,
             int *info, size_t, size_t);
void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda,
            double *wr, double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr,
            double *work, const int *lwork, int *info, size_t, size_t);

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
