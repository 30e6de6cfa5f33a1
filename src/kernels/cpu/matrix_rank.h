/* The rank counting shared by matrix_rank and matrix_rank_atol_rtol: the singular values of
 * each matrix of X (input 0: float32, float64, complex64 or complex128; LAPACK gesdd, or the
 * magnitudes of the eigenvalues by syevd / heevd of the lower triangle with hermitian) in X's
 * (real) dtype, counted above max(atol, rtol * the largest), compared in that dtype as
 * Paddle's kernels compare them (paddle/phi/kernels/cpu/matrix_rank_tol_kernel.cc). */
#ifndef IC_KERNELS_CPU_MATRIX_RANK_H
#define IC_KERNELS_CPU_MATRIX_RANK_H

#include <float.h>
#include <math.h>

#include "kernels/cpu/lapack.h"

/* For output element i: *xi the index of X's matrix, *atol and *rtol its tolerances;
 * eps_rtol is eps(dtype) * max(m, n), the default relative tolerance. */
typedef void (*ic_mrank_tol_fn)(const void *ud, int64_t i, double eps_rtol, int64_t *xi,
                                double *atol, double *rtol);

/* Out (output 0, int64) element i = the rank of X's matrix *xi under its tolerances. */
static inline ic_status ic_mrank_run(ic_kctx *c, bool hermitian, ic_mrank_tol_fn tol_of,
                                     const void *ud) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t count = ic_tensor_numel_(o);
  if (count == 0) return IC_OK;
  const bool f32 = x->dtype == IC_FP32 || x->dtype == IC_COMPLEX64;
  const bool cplx = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128;
  const int64_t mx = m > n ? m : n;
  const double eps_rtol = f32 ? (double)(FLT_EPSILON * (float)mx) : DBL_EPSILON * (double)mx;
  /* workspace: the matrix, the values (X's real dtype), gesdd's work (X's dtype), rwork
   * (complex: 7k reals) and iwork */
  const size_t es = f32 ? sizeof(float) : sizeof(double), xs = ic_dtype_size(x->dtype);
  const int mi = (int)m, ni = (int)n, ld = m > 1 ? (int)m : 1, one = 1, query = -1;
  int info = 0;
  double wq = 0, dd[4] = {0};
  float wqf = 0, df[4] = {0};
  int di[1] = {0};
  if (!hermitian && k > 0 && cplx) {
    double wz[2] = {0, 0};
    float wc[2] = {0, 0};
    if (f32) {
      cgesdd_("N", &mi, &ni, df, &ld, df, df, &one, df, &one, wc, &query, df, di, &info, 1);
      wq = wc[0];
    } else {
      zgesdd_("N", &mi, &ni, dd, &ld, dd, dd, &one, dd, &one, wz, &query, dd, di, &info, 1);
      wq = wz[0];
    }
  } else if (!hermitian && k > 0) {
    if (f32) {
      sgesdd_("N", &mi, &ni, df, &ld, df, df, &one, df, &one, &wqf, &query, di, &info, 1);
      wq = wqf;
    } else {
      dgesdd_("N", &mi, &ni, dd, &ld, dd, dd, &one, dd, &one, &wq, &query, di, &info, 1);
    }
  }
  const int64_t lwork = wq > 1 ? (int64_t)wq : 1;
  ic_buffer *buf = ic_kscratch(c, xs * (size_t)(m * n + lwork) + es * (size_t)(k + 7 * k) +
                                      sizeof(double) * (size_t)k +
                                      sizeof(int) * (size_t)(8 * k + 1));
  if (!buf) return c->err->code;
  double *sv = buf->data; /* first: aligned for double */
  char *am = (char *)(sv + k), *work = am + xs * (size_t)(m * n);
  char *svt = work + xs * (size_t)lwork;
  char *rwork = svt + es * (size_t)k;
  int *iwork = (int *)(rwork + es * (size_t)(7 * k));
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t i = 0; i < count && !st; i++) {
    int64_t xi = i;
    double atol = 0.0, rtol = 0.0;
    tol_of(ud, i, eps_rtol, &xi, &atol, &rtol);
    int64_t rank = 0;
    if (k > 0) {
      ic_la_load_cmt(x, xi, m, n, am);
      if (hermitian) {
        info = cplx ? ic_la_heevd(c, f32, false, "L", (int)n, am, svt)
                    : ic_la_syevd(c, f32, false, "L", (int)n, am, svt);
        if (info == -1000) {
          st = c->err->code;
          break;
        }
      } else if (cplx && f32) {
        cgesdd_("N", &mi, &ni, (float *)am, &ld, (float *)svt, df, &one, df, &one,
                (float *)work, &lw, (float *)rwork, iwork, &info, 1);
      } else if (cplx) {
        zgesdd_("N", &mi, &ni, (double *)am, &ld, (double *)svt, dd, &one, dd, &one,
                (double *)work, &lw, (double *)rwork, iwork, &info, 1);
      } else if (f32) {
        sgesdd_("N", &mi, &ni, (float *)am, &ld, (float *)svt, df, &one, df, &one,
                (float *)work, &lw, iwork, &info, 1);
      } else {
        dgesdd_("N", &mi, &ni, (double *)am, &ld, (double *)svt, dd, &one, dd, &one,
                (double *)work, &lw, iwork, &info, 1);
      }
      if (info != 0) {
        st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld: LAPACK %s did not "
                      "converge (info %d)", ic_in_name(c, 0, 0), (long long)xi,
                      hermitian ? "syevd" : "gesdd", info);
        break;
      }
      for (int64_t j = 0; j < k; j++) sv[j] = fabs(ic_la_at(svt, f32, j));
      double big = 0.0;
      for (int64_t j = 0; j < k; j++) {
        if (sv[j] > big || j == 0) big = sv[j];
      }
      double rt = rtol * big;
      if (f32) {
        atol = (double)(float)atol;
        rt = (double)((float)rtol * (float)big);
      }
      const double tol = atol > rt ? atol : rt;
      for (int64_t j = 0; j < k; j++) rank += sv[j] > tol;
    }
    ((int64_t *)o->data)[i] = rank;
  }
  ic_buffer_release(buf);
  return st;
}

#endif
