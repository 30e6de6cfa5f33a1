/* eigvals: the eigenvalues of each general square matrix in the last two dims of X (float32
 * or float64, [..., n, n]): Out [..., n] complex64 (float32) or complex128 (float64); a
 * complex64 / complex128 X gives its own dtype (cgeev / zgeev). As
 * paddle/phi/kernels/cpu/eigvals_kernel.cc: LAPACK geev without vectors in X's dtype, handed
 * the row-major matrix as it is (so LAPACK factors X^T: the same eigenvalues, in the order
 * and rounding Paddle's call gives). Failure to converge fails as Paddle's. */
#include <string.h>

#include "kernels/cpu/complexutil.h"
#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2 || x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "expected square matrices [..., n, n] (rank >= 2)");
  }
  const bool cplx = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128;
  ic_tensor_set_meta(ic_out(c, 0, 0), cplx ? x->dtype : ic_complex_of(x->dtype), x->ndim - 1,
                     x->dims);
  return IC_OK;
}

/* A complex X: cgeev / zgeev without vectors on the row-major matrix as it is. */
static ic_status run_complex(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = x->dims[x->ndim - 1];
  if (ic_tensor_numel_(x) == 0) return IC_OK;
  const int64_t batch = ic_tensor_numel_(x) / (n * n);
  const bool c64 = x->dtype == IC_COMPLEX64;
  const size_t es = ic_dtype_size(x->dtype), rs = es / 2;
  const int ni = (int)n, one = 1, query = -1;
  int info = 0;
  double wq[2] = {0, 0}, dd[4] = {0};
  float wqf[2] = {0, 0}, df[4] = {0};
  if (c64) {
    cgeev_("N", "N", &ni, df, &ni, df, df, &one, df, &one, wqf, &query, df, &info, 1, 1);
    wq[0] = wqf[0];
  } else {
    zgeev_("N", "N", &ni, dd, &ni, dd, dd, &one, dd, &one, wq, &query, dd, &info, 1, 1);
  }
  int64_t lwork = wq[0] > 1 ? (int64_t)wq[0] : 1;
  if (lwork < 3 * n) lwork = 3 * n;
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(n * n + lwork) + rs * (size_t)(2 * n));
  if (!buf) return c->err->code;
  char *am = buf->data, *work = am + es * (size_t)(n * n), *rwork = work + es * (size_t)lwork;
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    memcpy(am, (const char *)x->data + es * (size_t)(b * n * n), es * (size_t)(n * n));
    char *wv = (char *)o->data + es * (size_t)(b * n);
    if (c64) {
      cgeev_("N", "N", &ni, (float *)am, &ni, (float *)wv, df, &one, df, &one, (float *)work,
             &lw, (float *)rwork, &info, 1, 1);
    } else {
      zgeev_("N", "N", &ni, (double *)am, &ni, (double *)wv, dd, &one, dd, &one,
             (double *)work, &lw, (double *)rwork, &info, 1, 1);
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld: LAPACK geev %s (info %d)",
                    ic_in_name(c, 0, 0), (long long)b,
                    info > 0 ? "did not converge" : "rejected an argument", info);
      break;
    }
  }
  ic_buffer_release(buf);
  return st;
}

static ic_status run(ic_kctx *c) {
  if (ic_in(c, 0, 0)->dtype == IC_COMPLEX64 || ic_in(c, 0, 0)->dtype == IC_COMPLEX128) {
    return run_complex(c);
  }
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = x->dims[x->ndim - 1];
  if (ic_tensor_numel_(x) == 0) return IC_OK;
  const int64_t batch = ic_tensor_numel_(x) / (n * n);
  const bool f32 = x->dtype == IC_FP32;
  const size_t es = f32 ? sizeof(float) : sizeof(double);
  const int ni = (int)n, one = 1, query = -1;
  int info = 0;
  double wq = 0, dd[1] = {0};
  float wqf = 0, df[1] = {0};
  if (f32) {
    sgeev_("N", "N", &ni, df, &ni, df, df, df, &one, df, &one, &wqf, &query, &info, 1, 1);
    wq = wqf;
  } else {
    dgeev_("N", "N", &ni, dd, &ni, dd, dd, dd, &one, dd, &one, &wq, &query, &info, 1, 1);
  }
  int64_t lwork = wq > 1 ? (int64_t)wq : 1;
  if (lwork < 3 * n) lwork = 3 * n;
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(n * n + 2 * n + lwork));
  if (!buf) return c->err->code;
  char *am = buf->data, *wr = am + es * (size_t)(n * n), *wi = wr + es * (size_t)n;
  char *work = wi + es * (size_t)n;
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    memcpy(am, (const char *)x->data + es * (size_t)(b * n * n), es * (size_t)(n * n));
    if (f32) {
      sgeev_("N", "N", &ni, (float *)am, &ni, (float *)wr, (float *)wi, df, &one, df, &one,
             (float *)work, &lw, &info, 1, 1);
    } else {
      dgeev_("N", "N", &ni, (double *)am, &ni, (double *)wr, (double *)wi, dd, &one, dd, &one,
             (double *)work, &lw, &info, 1, 1);
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld: LAPACK geev %s (info %d)",
                    ic_in_name(c, 0, 0), (long long)b,
                    info > 0 ? "did not converge" : "rejected an argument", info);
      break;
    }
    for (int64_t j = 0; j < n; j++) {
      const int64_t k = b * n + j;
      if (f32) {
        ((float *)o->data)[2 * k] = ((float *)wr)[j];
        ((float *)o->data)[2 * k + 1] = ((float *)wi)[j];
      } else {
        ((double *)o->data)[2 * k] = ((double *)wr)[j];
        ((double *)o->data)[2 * k + 1] = ((double *)wi)[j];
      }
    }
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_eigvals = {
    .name = "eigvals", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
