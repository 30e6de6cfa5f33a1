/* eig: the eigenvalues and right eigenvectors of each general square matrix in the last two
 * dims of X (float32 or float64, [..., n, n], n > 0): Eigenvalues [..., n] and Eigenvectors
 * [..., n, n] (one per column, unit 2-norm, largest component real) as complex64 (float32)
 * or complex128 (float64). A complex64 or complex128 X gives them in its own dtype (LAPACK
 * cgeev / zgeev). As paddle/phi/kernels/cpu/eig_kernel.cc: LAPACK geev (jobvl N,
 * jobvr V) in X's dtype (sgeev for float32, as the vectors' phases depend on it), eigenvalues
 * in LAPACK's order; a complex pair (imaginary part of the first >= 1e-6, Paddle's EPSILON)
 * takes its vectors from columns j and j+1 as v_j = re + i im, v_j+1 = re - i im, any other
 * value is real with a real vector. Failure to converge fails as Paddle's. */
#include <string.h>

#include "kernels/cpu/complexutil.h"
#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Eigenvalues", 0}, {"Eigenvectors", 0}};

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2 || x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "expected square matrices [..., n, n] (rank >= 2)");
  }
  if (x->dims[x->ndim - 1] <= 0) return ic_kfail_in(c, 0, 0, "expected an order n > 0");
  const bool cplx = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128;
  const ic_dtype ct = cplx ? x->dtype : ic_complex_of(x->dtype);
  ic_tensor_set_meta(ic_out(c, 0, 0), ct, x->ndim - 1, x->dims);
  ic_tensor_set_meta(ic_out(c, 1, 0), ct, x->ndim, x->dims);
  return IC_OK;
}

static void set_c(ic_tensor *t, int64_t k, double re, double im) {
  if (t->dtype == IC_COMPLEX64) {
    ((float *)t->data)[2 * k] = (float)re;
    ((float *)t->data)[2 * k + 1] = (float)im;
  } else {
    ((double *)t->data)[2 * k] = re;
    ((double *)t->data)[2 * k + 1] = im;
  }
}

/* A complex X: LAPACK cgeev / zgeev (jobvr V) on X column-major, values and vectors as
 * LAPACK gives them (Paddle's ApplyEigKernel on complex T). */
static ic_status run_complex(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *w = ic_out(c, 0, 0), *v = ic_out(c, 1, 0);
  const int64_t n = x->dims[x->ndim - 1];
  const int64_t batch = ic_tensor_numel_(x) / (n * n);
  if (batch == 0) return IC_OK;
  const bool c64 = x->dtype == IC_COMPLEX64;
  const size_t es = ic_dtype_size(x->dtype), rs = es / 2;
  const int ni = (int)n, one = 1, query = -1;
  int info = 0;
  double wq[2] = {0, 0}, dd[4] = {0};
  float wqf[2] = {0, 0}, df[4] = {0};
  if (c64) {
    cgeev_("N", "V", &ni, df, &ni, df, df, &one, df, &ni, wqf, &query, df, &info, 1, 1);
    wq[0] = wqf[0];
  } else {
    zgeev_("N", "V", &ni, dd, &ni, dd, dd, &one, dd, &ni, wq, &query, dd, &info, 1, 1);
  }
  const int64_t lwork = wq[0] > 1 ? (int64_t)wq[0] : 1;
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(2 * n * n + n + lwork) + rs * (size_t)(2 * n));
  if (!buf) return c->err->code;
  char *am = buf->data, *vr = am + es * (size_t)(n * n), *wv = vr + es * (size_t)(n * n);
  char *work = wv + es * (size_t)n, *rwork = work + es * (size_t)lwork;
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cmt(x, b, n, n, am);
    if (c64) {
      cgeev_("N", "V", &ni, (float *)am, &ni, (float *)wv, df, &one, (float *)vr, &ni,
             (float *)work, &lw, (float *)rwork, &info, 1, 1);
    } else {
      zgeev_("N", "V", &ni, (double *)am, &ni, (double *)wv, dd, &one, (double *)vr, &ni,
             (double *)work, &lw, (double *)rwork, &info, 1, 1);
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld: LAPACK geev %s (info %d)",
                    ic_in_name(c, 0, 0), (long long)b,
                    info > 0 ? "did not converge" : "rejected an argument", info);
      break;
    }
    memcpy((char *)w->data + es * (size_t)(b * n), wv, es * (size_t)n);
    ic_la_store_cmt(v, b, n, n, vr, n);
  }
  ic_buffer_release(buf);
  return st;
}

static ic_status run(ic_kctx *c) {
  if (ic_in(c, 0, 0)->dtype == IC_COMPLEX64 || ic_in(c, 0, 0)->dtype == IC_COMPLEX128) {
    return run_complex(c);
  }
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *w = ic_out(c, 0, 0), *v = ic_out(c, 1, 0);
  const int64_t n = x->dims[x->ndim - 1];
  const int64_t batch = ic_tensor_numel_(x) / (n * n);
  if (batch == 0) return IC_OK;
  const bool f32 = x->dtype == IC_FP32;
  const size_t es = f32 ? sizeof(float) : sizeof(double);
  const int ni = (int)n, one = 1, query = -1;
  int info = 0;
  double wq = 0, dd[1] = {0};
  float wqf = 0, df[1] = {0};
  if (f32) {
    sgeev_("N", "V", &ni, df, &ni, df, df, df, &one, df, &ni, &wqf, &query, &info, 1, 1);
    wq = wqf;
  } else {
    dgeev_("N", "V", &ni, dd, &ni, dd, dd, dd, &one, dd, &ni, &wq, &query, &info, 1, 1);
  }
  const int64_t lwork = wq > 1 ? (int64_t)wq : 1;
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(2 * n * n + 2 * n + lwork));
  if (!buf) return c->err->code;
  char *am = buf->data, *vr = am + es * (size_t)(n * n), *wr = vr + es * (size_t)(n * n);
  char *wi = wr + es * (size_t)n, *work = wi + es * (size_t)n;
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cmt(x, b, n, n, am);
    if (f32) {
      sgeev_("N", "V", &ni, (float *)am, &ni, (float *)wr, (float *)wi, df, &one, (float *)vr,
             &ni, (float *)work, &lw, &info, 1, 1);
    } else {
      dgeev_("N", "V", &ni, (double *)am, &ni, (double *)wr, (double *)wi, dd, &one,
             (double *)vr, &ni, (double *)work, &lw, &info, 1, 1);
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld: LAPACK geev %s (info %d)",
                    ic_in_name(c, 0, 0), (long long)b,
                    info > 0 ? "did not converge" : "rejected an argument", info);
      break;
    }
    for (int64_t j = 0; j < n; j++) {
      set_c(w, b * n + j, ic_la_at(wr, f32, j), ic_la_at(wi, f32, j));
    }
    /* vectors: column j of vr (column-major), paired for a complex pair */
    for (int64_t j = 0; j < n; j++) {
      const double im = ic_la_at(wi, f32, j);
      if (im < 1e-6 || j + 1 >= n) { /* Paddle's test: imag < EPSILON (1e-6, in double) */
        for (int64_t i = 0; i < n; i++) {
          set_c(v, (b * n + i) * n + j, ic_la_at(vr, f32, j * n + i), 0.0);
        }
        continue;
      }
      for (int64_t i = 0; i < n; i++) {
        const double re = ic_la_at(vr, f32, j * n + i), ii = ic_la_at(vr, f32, (j + 1) * n + i);
        set_c(v, (b * n + i) * n + j, re, ii);
        set_c(v, (b * n + i) * n + j + 1, re, -ii);
      }
      j++;
    }
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_eig = {
    .name = "eig", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
