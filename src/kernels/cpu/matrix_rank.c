/* matrix_rank: Out int64 = the number of singular values of each matrix in the last two
 * dims of X (float32 or float64, [..., m, n]) above tol = max(atol, rtol * the largest),
 * where rtol = eps(dtype) * max(m, n) with use_default_tol, else 0, and atol = 0 with
 * use_default_tol, else the attribute tol; or, with the optional TolTensor (X's dtype, its
 * dims broadcast against X's batch dims numpy-style, Out the broadcast dims), atol =
 * TolTensor's element. With hermitian, the magnitudes of the eigenvalues (LAPACK syevd of the
 * lower triangle) stand for the singular values (LAPACK gesdd). As paddle/phi/kernels/cpu/
 * matrix_rank_kernel.cc and matrix_rank_tol_kernel.cc: the LAPACK routines in X's dtype and
 * the comparison in it, as Paddle's. A complex64 / complex128 X (cgesdd / zgesdd, or cheevd /
 * zheevd with hermitian) compares in its real dtype, which TolTensor then has. */
#include <float.h>
#include <math.h>

#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"TolTensor", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

typedef struct mr_attrs {
  double tol;
  bool hermitian, use_default_tol;
} mr_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mr_attrs *a = attrs;
  a->tol = ic_ar_float(r, "tol", 0.0);
  a->hermitian = ic_ar_bool(r, "hermitian", false);
  a->use_default_tol = ic_ar_bool(r, "use_default_tol", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const mr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *t = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., m, n])");
  if (a->hermitian && x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "expected square matrices (hermitian is true)");
  }
  if (!t) {
    ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT64, x->ndim - 2, x->dims);
    return IC_OK;
  }
  const ic_dtype rd = x->dtype == IC_COMPLEX64 ? IC_FP32 : x->dtype == IC_COMPLEX128 ? IC_FP64
                                                                                : x->dtype;
  if (t->dtype != rd) {
    return ic_kfail_in(c, 1, 0, "expected %s (X's real dtype)", ic_dtype_name(rd));
  }
  ic_la_bcast b;
  if (!ic_la_bcast_init(&b, x->dims, x->ndim - 2, t->dims, t->ndim)) {
    char xs[128];
    return ic_kfail_in(c, 1, 0, "its dims do not broadcast with X's batch dims (X is %s)",
                       ic_la_dims(x, xs, sizeof xs));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT64, b.nb, b.dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const mr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *t = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t count = ic_tensor_numel_(o);
  if (count == 0) return IC_OK;
  ic_la_bcast b = {0};
  if (t) ic_la_bcast_init(&b, x->dims, x->ndim - 2, t->dims, t->ndim);
  const bool f32 = x->dtype == IC_FP32 || x->dtype == IC_COMPLEX64;
  const bool cplx = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128;
  const int64_t mx = m > n ? m : n;
  const double rtol = !a->use_default_tol ? 0.0 : f32 ? (double)(FLT_EPSILON * (float)mx)
                                                      : DBL_EPSILON * (double)mx;
  /* workspace: the matrix, the values (X's real dtype), gesdd's work (X's dtype), rwork
   * (complex: 7k reals) and iwork */
  const size_t es = f32 ? sizeof(float) : sizeof(double), xs = ic_dtype_size(x->dtype);
  const int mi = (int)m, ni = (int)n, ld = m > 1 ? (int)m : 1, one = 1, query = -1;
  int info = 0;
  double wq = 0, dd[4] = {0};
  float wqf = 0, df[4] = {0};
  int di[1] = {0};
  if (!a->hermitian && k > 0 && cplx) {
    double wz[2] = {0, 0};
    float wc[2] = {0, 0};
    if (f32) {
      cgesdd_("N", &mi, &ni, df, &ld, df, df, &one, df, &one, wc, &query, df, di, &info, 1);
      wq = wc[0];
    } else {
      zgesdd_("N", &mi, &ni, dd, &ld, dd, dd, &one, dd, &one, wz, &query, dd, di, &info, 1);
      wq = wz[0];
    }
  } else if (!a->hermitian && k > 0) {
    if (f32) {
      sgesdd_("N", &mi, &ni, df, &ld, df, df, &one, df, &one, &wqf, &query, di, &info, 1);
      wq = wqf;
    } else {
      dgesdd_("N", &mi, &ni, dd, &ld, dd, dd, &one, dd, &one, &wq, &query, di, &info, 1);
    }
  }
  const int64_t lwork = wq > 1 ? (int64_t)wq : 1;
  ic_buffer *buf = ic_kscratch(c, xs * (size_t)(m * n + lwork) + es * (size_t)(k + 7 * k) +
                                      sizeof(double) * (size_t)k + sizeof(int) * (size_t)(8 * k + 1));
  if (!buf) return c->err->code;
  double *sv = buf->data; /* first: aligned for double */
  char *am = (char *)(sv + k), *work = am + xs * (size_t)(m * n);
  char *svt = work + xs * (size_t)lwork;
  char *rwork = svt + es * (size_t)k;
  int *iwork = (int *)(rwork + es * (size_t)(7 * k));
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t i = 0; i < count && !st; i++) {
    int64_t xi = i, ti = 0;
    if (t) ic_la_bcast_at(&b, i, &xi, &ti);
    int64_t rank = 0;
    if (k > 0) {
      ic_la_load_cmt(x, xi, m, n, am);
      if (a->hermitian) {
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
                      a->hermitian ? "syevd" : "gesdd", info);
        break;
      }
      for (int64_t j = 0; j < k; j++) sv[j] = fabs(ic_la_at(svt, f32, j));
      double big = 0.0;
      for (int64_t j = 0; j < k; j++) {
        if (sv[j] > big || j == 0) big = sv[j];
      }
      double atol = t ? ic_read_f64(t, ti) : a->use_default_tol ? 0.0 : a->tol;
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

const ic_opdef ic_op_matrix_rank = {
    .name = "matrix_rank", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(mr_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
