/* svd: X = U diag(S) VH for each matrix in the last two dims of X (float32 or float64,
 * [..., m, n], both > 0, k = min(m, n)): S [..., k] descending; with full_matrices U
 * [..., m, m] and VH [..., n, n], else U [..., m, k] and VH [..., k, n]. As
 * paddle/phi/kernels/cpu/svd_kernel.cc: LAPACK gesdd (jobz A or S) in X's dtype (sgesdd for
 * float32: the float64 routine may choose other signs for the vectors), so the singular
 * vectors have Paddle's signs (away from repeated singular values, where they are not
 * unique). complex64 / complex128 X: cgesdd / zgesdd, S real (float32 / float64), VH = V^H.
 * A failure to converge fails as Paddle's. */
#include <string.h>

#include "kernels/cpu/complexutil.h"
#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[3] = {{"U", 0}, {"S", 0}, {"VH", 0}};

typedef struct svd_attrs {
  bool full;
} svd_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((svd_attrs *)attrs)->full = ic_ar_bool(r, "full_matrices", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const svd_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., m, n])");
  const int r = x->ndim;
  const int64_t m = x->dims[r - 2], n = x->dims[r - 1], k = m < n ? m : n;
  if (m <= 0 || n <= 0) return ic_kfail_in(c, 0, 0, "expected m > 0 and n > 0 rows and columns");
  if (a->full && (!ic_la_fits(m, m) || !ic_la_fits(n, n))) {
    return ic_kfail_in(c, 0, 0, "its full U or VH has more than 2^31 - 1 elements, beyond "
                       "LAPACK's 32-bit indices");
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)r);
  d[r - 1] = a->full ? m : k;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, r, d);
  d[r - 2] = k;
  const bool cplx = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128;
  ic_tensor_set_meta(ic_out(c, 1, 0), cplx ? ic_complex_part_dtype(x->dtype) : x->dtype, r - 1,
                     d);
  d[r - 2] = a->full ? n : k;
  d[r - 1] = n;
  ic_tensor_set_meta(ic_out(c, 2, 0), x->dtype, r, d);
  return IC_OK;
}

/* A complex X: cgesdd / zgesdd in its dtype; S real, VH = V^H as LAPACK gives it. */
static ic_status run_complex(ic_kctx *c) {
  const svd_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *u = ic_out(c, 0, 0), *s = ic_out(c, 1, 0), *vh = ic_out(c, 2, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t mx = m > n ? m : n;
  const int64_t batch = ic_tensor_numel_(x) / (m * n);
  if (batch == 0) return IC_OK;
  const bool c64 = x->dtype == IC_COMPLEX64;
  const size_t es = ic_dtype_size(x->dtype), rs = es / 2;
  const int64_t uc = a->full ? m : k, vr = a->full ? n : k;
  const int mi = (int)m, ni = (int)n, ldu = (int)m, ldvt = (int)vr, query = -1;
  int info = 0;
  double wq[2] = {0, 0}, dd[4] = {0};
  float wqf[2] = {0, 0}, df[4] = {0};
  int di[1] = {0};
  const char *jobz = a->full ? "A" : "S";
  if (c64) {
    cgesdd_(jobz, &mi, &ni, df, &mi, df, df, &ldu, df, &ldvt, wqf, &query, df, di, &info, 1);
    wq[0] = wqf[0];
  } else {
    zgesdd_(jobz, &mi, &ni, dd, &mi, dd, dd, &ldu, dd, &ldvt, wq, &query, dd, di, &info, 1);
  }
  const int64_t lwork = wq[0] > 1 ? (int64_t)wq[0] : 1;
  /* rwork as LAPACK documents it for jobz A / S */
  int64_t lrwork = 5 * k * k + 5 * k;
  if (2 * mx * k + 2 * k * k + k > lrwork) lrwork = 2 * mx * k + 2 * k * k + k;
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(m * n + m * uc + vr * n + lwork) +
                                      rs * (size_t)(k + lrwork) + sizeof(int) * (size_t)(8 * k));
  if (!buf) return c->err->code;
  char *am = buf->data, *um = am + es * (size_t)(m * n), *vm = um + es * (size_t)(m * uc);
  char *work = vm + es * (size_t)(vr * n), *sv = work + es * (size_t)lwork;
  char *rwork = sv + rs * (size_t)k;
  int *iwork = (int *)(rwork + rs * (size_t)lrwork);
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cmt(x, b, m, n, am);
    if (c64) {
      cgesdd_(jobz, &mi, &ni, (float *)am, &mi, (float *)sv, (float *)um, &ldu, (float *)vm,
              &ldvt, (float *)work, &lw, (float *)rwork, iwork, &info, 1);
    } else {
      zgesdd_(jobz, &mi, &ni, (double *)am, &mi, (double *)sv, (double *)um, &ldu,
              (double *)vm, &ldvt, (double *)work, &lw, (double *)rwork, iwork, &info, 1);
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld: LAPACK gesdd %s (info %d)",
                    ic_in_name(c, 0, 0), (long long)b,
                    info > 0 ? "did not converge" : "rejected an argument", info);
      break;
    }
    ic_la_store_cmt(u, b, m, uc, um, m);
    memcpy((char *)s->data + rs * (size_t)(b * k), sv, rs * (size_t)k);
    ic_la_store_cmt(vh, b, vr, n, vm, vr);
  }
  ic_buffer_release(buf);
  return st;
}

static ic_status run(ic_kctx *c) {
  if (ic_in(c, 0, 0)->dtype == IC_COMPLEX64 || ic_in(c, 0, 0)->dtype == IC_COMPLEX128) {
    return run_complex(c);
  }
  const svd_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *u = ic_out(c, 0, 0), *s = ic_out(c, 1, 0), *vh = ic_out(c, 2, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t batch = ic_tensor_numel_(x) / (m * n);
  if (batch == 0) return IC_OK;
  const bool f32 = x->dtype == IC_FP32;
  const size_t es = f32 ? sizeof(float) : sizeof(double);
  const int64_t uc = a->full ? m : k, vr = a->full ? n : k;
  const int mi = (int)m, ni = (int)n, ldu = (int)m, ldvt = (int)vr, query = -1;
  int info = 0;
  double wq = 0, dd[1] = {0};
  float wqf = 0, df[1] = {0};
  int di[1] = {0};
  const char *jobz = a->full ? "A" : "S";
  if (f32) {
    sgesdd_(jobz, &mi, &ni, df, &mi, df, df, &ldu, df, &ldvt, &wqf, &query, di, &info, 1);
    wq = wqf;
  } else {
    dgesdd_(jobz, &mi, &ni, dd, &mi, dd, dd, &ldu, dd, &ldvt, &wq, &query, di, &info, 1);
  }
  const int64_t lwork = wq > 1 ? (int64_t)wq : 1;
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(m * n + k + m * uc + vr * n + lwork) +
                                      sizeof(int) * (size_t)(8 * k));
  if (!buf) return c->err->code;
  char *am = buf->data, *sv = am + es * (size_t)(m * n), *um = sv + es * (size_t)k;
  char *vm = um + es * (size_t)(m * uc), *work = vm + es * (size_t)(vr * n);
  int *iwork = (int *)(work + es * (size_t)lwork);
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cmt(x, b, m, n, am);
    if (f32) {
      sgesdd_(jobz, &mi, &ni, (float *)am, &mi, (float *)sv, (float *)um, &ldu, (float *)vm,
              &ldvt, (float *)work, &lw, iwork, &info, 1);
    } else {
      dgesdd_(jobz, &mi, &ni, (double *)am, &mi, (double *)sv, (double *)um, &ldu,
              (double *)vm, &ldvt, (double *)work, &lw, iwork, &info, 1);
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld: LAPACK gesdd %s (info %d)",
                    ic_in_name(c, 0, 0), (long long)b,
                    info > 0 ? "did not converge" : "rejected an argument", info);
      break;
    }
    ic_la_store_cmt(u, b, m, uc, um, m);
    memcpy((char *)s->data + es * (size_t)(b * k), sv, es * (size_t)k);
    ic_la_store_cmt(vh, b, vr, n, vm, vr);
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_svd = {
    .name = "svd", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 3, .outputs = k_outputs,
    .attrs_size = sizeof(svd_attrs), .parse = parse, .infer = infer, .cpu = run,
};
