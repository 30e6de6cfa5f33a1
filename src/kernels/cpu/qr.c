/* qr: the QR decomposition X = Q R of each matrix in the last two dims of X (float32 or
 * float64, [..., m, n], k = min(m, n)). mode "reduced" (default): Q [..., m, k], R [..., k, n];
 * "complete": Q [..., m, m], R [..., m, n]; "r": only R [..., k, n], Q empty ([0]). As
 * paddle/phi/kernels/cpu/qr_kernel.cc (Eigen's Householder QR), here LAPACK geqrf + orgqr in
 * double, rounded once for float32: the same Householder reflectors (beta = -sign(alpha) *
 * norm), so R's diagonal and Q's columns have Paddle's signs. complex64 / complex128 X:
 * cgeqrf + cungqr / zgeqrf + zungqr in its dtype. */
#include <string.h>

#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Q", 0}, {"R", 0}};

typedef struct qr_attrs {
  bool compute_q, reduced;
} qr_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  qr_attrs *a = attrs;
  const char *m = ic_ar_str(r, "mode", "reduced");
  if (r->st) return r->st;
  if (!strcmp(m, "reduced")) *a = (qr_attrs){true, true};
  else if (!strcmp(m, "complete")) *a = (qr_attrs){true, false};
  else if (!strcmp(m, "r")) *a = (qr_attrs){false, true};
  else return ic_ar_fail(r, "mode", "is \"%s\", expected \"reduced\", \"complete\" or \"r\"", m);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const qr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., m, n])");
  const int r = x->ndim;
  const int64_t m = x->dims[r - 2], n = x->dims[r - 1], k = m < n ? m : n;
  const int64_t rows = a->reduced ? k : m;
  if (!ic_la_fits(m, rows > n ? rows : n)) {
    return ic_kfail_in(c, 0, 0, "its Q has more than 2^31 - 1 elements, beyond LAPACK's "
                       "32-bit indices");
  }
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)r);
  d[r - 2] = rows;
  ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, r, d);
  if (a->compute_q) {
    d[r - 2] = m;
    d[r - 1] = rows;
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, r, d);
  } else {
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 1, (int64_t[]){0});
  }
  return IC_OK;
}

/* Element k of t (any float or complex dtype) = 1. */
static void set_one(ic_tensor *t, int64_t k) {
  if (t->dtype == IC_COMPLEX64 || t->dtype == IC_COMPLEX128) {
    memset((char *)t->data + ic_dtype_size(t->dtype) * (size_t)k, 0, ic_dtype_size(t->dtype));
    if (t->dtype == IC_COMPLEX64) ((float *)t->data)[2 * k] = 1.0f;
    else ((double *)t->data)[2 * k] = 1.0;
  } else {
    ic_la_set(t, k, 1.0);
  }
}

/* A complex X: cgeqrf + cungqr / zgeqrf + zungqr in its dtype (Eigen's complex Householder
 * QR in Paddle: the same reflectors, R's diagonal real). */
static ic_status run_complex(ic_kctx *c, int64_t rows) {
  const qr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *q = ic_out(c, 0, 0), *rt = ic_out(c, 1, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t batch = ic_tensor_numel_(x) / (m * n);
  const int64_t qcols = rows > n ? rows : n;
  const bool c64 = x->dtype == IC_COMPLEX64;
  const size_t es = ic_dtype_size(x->dtype);
  const int mi = (int)m, ni = (int)n, ki = (int)k, qc = (int)rows, ld = (int)m, query = -1;
  int info = 0;
  double w1[2] = {0, 0}, w2[2] = {0, 0}, dd[4] = {0};
  float f1[2] = {0, 0}, f2[2] = {0, 0}, df[4] = {0};
  if (c64) {
    cgeqrf_(&mi, &ni, df, &ld, df, f1, &query, &info);
    if (a->compute_q) cungqr_(&mi, &qc, &ki, df, &ld, df, f2, &query, &info);
    w1[0] = f1[0];
    w2[0] = f2[0];
  } else {
    zgeqrf_(&mi, &ni, dd, &ld, dd, w1, &query, &info);
    if (a->compute_q) zungqr_(&mi, &qc, &ki, dd, &ld, dd, w2, &query, &info);
  }
  int64_t lw = (int64_t)(w1[0] > w2[0] ? w1[0] : w2[0]);
  if (lw < 1) lw = 1;
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(m * qcols + k + lw));
  if (!buf) return c->err->code;
  char *am = buf->data, *tau = am + es * (size_t)(m * qcols), *work = tau + es * (size_t)k;
  const int lwork = (int)lw;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cmt(x, b, m, n, am);
    if (c64) cgeqrf_(&mi, &ni, (float *)am, &ld, (float *)tau, (float *)work, &lwork, &info);
    else zgeqrf_(&mi, &ni, (double *)am, &ld, (double *)tau, (double *)work, &lwork, &info);
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': LAPACK geqrf failed (info %d)",
                    ic_in_name(c, 0, 0), info);
      break;
    }
    for (int64_t i = 0; i < rows; i++) {
      for (int64_t j = 0; j < n; j++) {
        char *d = (char *)rt->data + es * (size_t)((b * rows + i) * n + j);
        if (j >= i) memcpy(d, am + es * (size_t)(j * m + i), es);
        else memset(d, 0, es);
      }
    }
    if (!a->compute_q) continue;
    if (c64) cungqr_(&mi, &qc, &ki, (float *)am, &ld, (float *)tau, (float *)work, &lwork, &info);
    else zungqr_(&mi, &qc, &ki, (double *)am, &ld, (double *)tau, (double *)work, &lwork, &info);
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': LAPACK ungqr failed (info %d)",
                    ic_in_name(c, 0, 0), info);
      break;
    }
    ic_la_store_cmt(q, b, m, rows, am, m);
  }
  ic_buffer_release(buf);
  return st;
}

static ic_status run(ic_kctx *c) {
  const qr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *q = ic_out(c, 0, 0), *rt = ic_out(c, 1, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t rows = a->reduced ? k : m;
  if (ic_tensor_numel_(x) == 0) {
    /* empty matrices: R is empty or zeros, Q the identity's first columns (as Paddle) */
    const int64_t nr = ic_tensor_numel_(rt);
    if (nr > 0) memset(rt->data, 0, (size_t)nr * ic_dtype_size(rt->dtype));
    if (a->compute_q && ic_tensor_numel_(q)) {
      memset(q->data, 0, (size_t)ic_tensor_numel_(q) * ic_dtype_size(q->dtype));
      const int64_t nb = ic_tensor_numel_(q) / (m * rows), d = m < rows ? m : rows;
      for (int64_t b = 0; b < nb; b++) {
        for (int64_t i = 0; i < d; i++) set_one(q, b * m * rows + i * rows + i);
      }
    }
    return IC_OK;
  }
  if (x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128) return run_complex(c, rows);
  const int64_t batch = ic_tensor_numel_(x) / (m * n);
  const int64_t qcols = rows > n ? rows : n; /* the factored matrix, widened for complete Q */
  const int mi = (int)m, ni = (int)n, ki = (int)k, qc = (int)rows, ld = (int)m;
  /* workspace sizes by LAPACK's query */
  int info = 0, lwork = -1;
  double wq1 = 0, wq2 = 0;
  ic_buffer *tmp = ic_kscratch(c, sizeof(double) * (size_t)(m * qcols));
  if (!tmp) return c->err->code;
  dgeqrf_(&mi, &ni, tmp->data, &ld, &wq1, &wq1, &lwork, &info);
  if (a->compute_q) dorgqr_(&mi, &qc, &ki, tmp->data, &ld, &wq1, &wq2, &lwork, &info);
  ic_buffer_release(tmp);
  int64_t lw = (int64_t)(wq1 > wq2 ? wq1 : wq2);
  if (lw < 1) lw = 1;
  ic_buffer *buf = ic_kscratch(c, sizeof(double) * (size_t)(m * qcols + k + lw));
  if (!buf) return c->err->code;
  double *am = buf->data, *tau = am + m * qcols, *work = tau + k;
  lwork = (int)lw;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cm(x, b, m, n, am);
    dgeqrf_(&mi, &ni, am, &ld, tau, work, &lwork, &info);
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': LAPACK geqrf failed (info %d)",
                    ic_in_name(c, 0, 0), info);
      break;
    }
    /* R: the upper triangle of the first `rows` rows */
    for (int64_t i = 0; i < rows; i++) {
      for (int64_t j = 0; j < n; j++) {
        ic_la_set(rt, b * rows * n + i * n + j, j >= i && i < m ? am[j * m + i] : 0.0);
      }
    }
    if (!a->compute_q) continue;
    dorgqr_(&mi, &qc, &ki, am, &ld, tau, work, &lwork, &info);
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': LAPACK orgqr failed (info %d)",
                    ic_in_name(c, 0, 0), info);
      break;
    }
    ic_la_store_cm(q, b, m, rows, am, m);
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_qr = {
    .name = "qr", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(qr_attrs), .parse = parse, .infer = infer, .cpu = run,
};
