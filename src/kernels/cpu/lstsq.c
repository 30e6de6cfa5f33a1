/* lstsq: the least-squares solutions of X B = Y (paddle.linalg.lstsq). X [..., m, n], Y
 * [..., m, nrhs] (float32 or float64, the same batch dims), by the LAPACK driver `driver`:
 * "gels" (QR or LQ, X of full rank), "gelsy" (complete orthogonal factorization with column
 * pivoting), "gelsd" (SVD, divide and conquer) or "gelss" (SVD); rcond: the relative
 * threshold below which singular values count as zero (gelsy, gelsd, gelss). Outputs as
 * paddle/phi/kernels/cpu/lstsq_kernel.cc writes them:
 *   Solution [..., n, nrhs] (for a single matrix, X [1, m, n] included, [n, nrhs]);
 *   Residuals [..., nrhs] the squared residual norms sum((X B - Y)^2 over rows), only when
 *     m > n, the driver is not gelsy and (gelsd, gelss) every X has rank n; else empty [0];
 *   Rank int32 [...] the effective ranks (gelsy, gelsd, gelss; Paddle leaves it unwritten
 *     for gels, icore writes zeros);
 *   SingularValues [..., min(m, n)] descending (gelsd, gelss; unwritten by Paddle for gels
 *     and gelsy, zeros here).
 * Solved in double and rounded once for float32 (Paddle solves in the dtype); a failure of
 * the driver (gels on a rank-deficient X) fails as Paddle's. */
#include <string.h>

#include "kernels/cpu/lapack.h"

enum { IN_X, IN_Y };
enum { OUT_SOL, OUT_RES, OUT_RANK, OUT_SV };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[4] = {
    {"Solution", 0},
    {"Residuals", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}, /* [0] or [..., nrhs]: by the ranks */
    {"Rank", 0},
    {"SingularValues", 0}};

enum { GELS, GELSY, GELSD, GELSS };
static const char *const k_drivers[4] = {"gels", "gelsy", "gelsd", "gelss"};

typedef struct lstsq_attrs {
  double rcond;
  int driver;
} lstsq_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lstsq_attrs *a = attrs;
  a->rcond = ic_ar_float(r, "rcond", 0.0);
  const char *d = ic_ar_str(r, "driver", "gels");
  if (r->st) return r->st;
  a->driver = -1;
  for (int i = 0; i < 4; i++) {
    if (!strcmp(d, k_drivers[i])) a->driver = i;
  }
  if (a->driver < 0) {
    return ic_ar_fail(r, "driver", "is \"%s\", expected gels, gelsy, gelsd or gelss", d);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if ((st = ic_la_check_size(c, 1))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 ([..., m, n])");
  const int r = x->ndim;
  const int64_t m = x->dims[r - 2], n = x->dims[r - 1];
  bool ok = y->dtype == x->dtype && y->ndim == r && y->dims[r - 2] == m;
  for (int i = 0; ok && i < r - 2; i++) ok = y->dims[i] == x->dims[i];
  if (!ok) {
    char xs[128];
    return ic_kfail_in(c, IN_Y, 0, "expected %s [..., %lld, nrhs] with X's batch dims (X is %s)",
                       ic_dtype_name(x->dtype), (long long)m, ic_la_dims(x, xs, sizeof xs));
  }
  const int64_t nrhs = y->dims[r - 1], k = m < n ? m : n;
  if (!ic_la_fits(m > n ? m : n, nrhs)) {
    return ic_kfail_in(c, IN_Y, 0, "its solution matrix would have more than 2^31 - 1 "
                       "elements, beyond LAPACK's 32-bit indices");
  }
  int64_t batch = 1;
  for (int i = 0; i < r - 2; i++) batch *= x->dims[i];
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)r);
  ic_tensor_set_meta(ic_out(c, OUT_RANK, 0), IC_INT32, r - 2, d);
  d[r - 2] = k;
  ic_tensor_set_meta(ic_out(c, OUT_SV, 0), x->dtype, r - 1, d);
  /* Residuals: [0] unless computed, which only the values tell: run() sets its dims */
  if (ic_out(c, OUT_RES, 0)) ic_tensor_set_meta(ic_out(c, OUT_RES, 0), x->dtype, 1, (int64_t[]){0});
  if (batch == 1) {
    ic_tensor_set_meta(ic_out(c, OUT_SOL, 0), x->dtype, 2, (int64_t[]){n, nrhs});
  } else {
    d[r - 2] = n;
    d[r - 1] = nrhs;
    ic_tensor_set_meta(ic_out(c, OUT_SOL, 0), x->dtype, r, d);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const lstsq_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *y = ic_in(c, IN_Y, 0);
  ic_tensor *sol = ic_out(c, OUT_SOL, 0), *res = ic_out(c, OUT_RES, 0);
  ic_tensor *rk = ic_out(c, OUT_RANK, 0), *svt = ic_out(c, OUT_SV, 0);
  const int r = x->ndim;
  const int64_t m = x->dims[r - 2], n = x->dims[r - 1], nrhs = y->dims[r - 1];
  const int64_t k = m < n ? m : n, ldb = m > n ? m : n;
  const int64_t batch = ic_tensor_numel_(rk);
  memset(rk->data, 0, (size_t)batch * sizeof(int32_t));
  memset(svt->data, 0, (size_t)ic_tensor_numel_(svt) * ic_dtype_size(svt->dtype));
  memset(sol->data, 0, (size_t)ic_tensor_numel_(sol) * ic_dtype_size(sol->dtype));
  if (ic_tensor_numel_(x) == 0 || ic_tensor_numel_(y) == 0) {
    return ic_kalloc_out(c, OUT_RES, 0, x->dtype, 1, (int64_t[]){0});
  }
  const int mi = (int)m, ni = (int)n, nr = (int)nrhs, lda = m > 1 ? (int)m : 1;
  const int ldbi = ldb > 1 ? (int)ldb : 1, query = -1;
  const double rcond = x->dtype == IC_FP32 ? (double)(float)a->rcond : a->rcond;
  /* workspace by the driver's query */
  double wq = 0, dd[1] = {0};
  int info = 0, rank = 0, iq[1] = {0};
  switch (a->driver) {
    case GELS: dgels_("N", &mi, &ni, &nr, dd, &lda, dd, &ldbi, &wq, &query, &info, 1); break;
    case GELSY:
      dgelsy_(&mi, &ni, &nr, dd, &lda, dd, &ldbi, iq, &rcond, &rank, &wq, &query, &info);
      break;
    case GELSD:
      dgelsd_(&mi, &ni, &nr, dd, &lda, dd, &ldbi, dd, &rcond, &rank, &wq, &query, iq, &info);
      break;
    default:
      dgelss_(&mi, &ni, &nr, dd, &lda, dd, &ldbi, dd, &rcond, &rank, &wq, &query, &info);
      break;
  }
  const int64_t lwork = wq > 1 ? (int64_t)wq : 1;
  const int64_t liwork = a->driver == GELSD ? (iq[0] > 1 ? iq[0] : 1) : n > 1 ? n : 1;
  ic_buffer *buf = ic_kscratch(c, sizeof(double) * (size_t)(m * n + ldb * nrhs + k + lwork) +
                                      sizeof(int) * (size_t)liwork);
  if (!buf) return c->err->code;
  double *am = buf->data, *bm = am + m * n, *sv = bm + ldb * nrhs, *work = sv + k;
  int *iwork = (int *)(work + lwork);
  const int lw = (int)lwork;
  bool full_rank = true;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cm(x, b, m, n, am);
    for (int64_t j = 0; j < nrhs; j++) {
      for (int64_t i = 0; i < ldb; i++) {
        bm[j * ldb + i] = i < m ? ic_read_f64(y, (b * m + i) * nrhs + j) : 0.0;
      }
    }
    switch (a->driver) {
      case GELS: dgels_("N", &mi, &ni, &nr, am, &lda, bm, &ldbi, work, &lw, &info, 1); break;
      case GELSY:
        memset(iwork, 0, sizeof(int) * (size_t)liwork);
        dgelsy_(&mi, &ni, &nr, am, &lda, bm, &ldbi, iwork, &rcond, &rank, work, &lw, &info);
        break;
      case GELSD:
        dgelsd_(&mi, &ni, &nr, am, &lda, bm, &ldbi, sv, &rcond, &rank, work, &lw, iwork, &info);
        break;
      default:
        dgelss_(&mi, &ni, &nr, am, &lda, bm, &ldbi, sv, &rcond, &rank, work, &lw, &info);
        break;
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld: LAPACK %s failed (info %d%s)",
                    ic_in_name(c, IN_X, 0), (long long)b, k_drivers[a->driver], info,
                    a->driver == GELS && info > 0 ? ": X is not of full rank" : "");
      break;
    }
    if (a->driver != GELS) {
      ((int32_t *)rk->data)[b] = rank;
      if (rank != n) full_rank = false;
    }
    if (a->driver == GELSD || a->driver == GELSS) {
      for (int64_t i = 0; i < k; i++) ic_la_set(svt, b * k + i, sv[i]);
    }
    ic_la_store_cm(sol, b, n, nrhs, bm, ldb);
  }
  ic_buffer_release(buf);
  if (st || !res) return st;
  if (!(m > n && a->driver != GELSY && full_rank)) {
    return ic_kalloc_out(c, OUT_RES, 0, x->dtype, 1, (int64_t[]){0});
  }
  /* Residuals from the rounded solution, as Paddle computes them from its Solution */
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof(int64_t) * (size_t)r);
  d[r - 2] = nrhs;
  st = ic_kalloc_out(c, OUT_RES, 0, x->dtype, r - 1, d);
  if (st) return st;
  res = ic_out(c, OUT_RES, 0);
  for (int64_t b = 0; b < batch; b++) {
    for (int64_t j = 0; j < nrhs; j++) {
      double s = 0.0;
      for (int64_t i = 0; i < m; i++) {
        double v = 0.0;
        for (int64_t l = 0; l < n; l++) {
          v += ic_read_f64(x, (b * m + i) * n + l) * ic_read_f64(sol, (b * n + l) * nrhs + j);
        }
        v -= ic_read_f64(y, (b * m + i) * nrhs + j);
        s += v * v;
      }
      ic_la_set(res, b * nrhs + j, s);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_lstsq = {
    .name = "lstsq", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 4, .outputs = k_outputs,
    .attrs_size = sizeof(lstsq_attrs), .parse = parse, .infer = infer, .cpu = run,
};
