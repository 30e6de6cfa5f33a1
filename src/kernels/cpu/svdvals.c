/* svdvals: the singular values of each matrix in the last two dims of x (float32 or
 * float64, [..., m, n], m, n > 0), descending, k = min(m, n) of them (Paddle 3's
 * paddle.linalg.svdvals; paddle/phi/kernels/cpu/svdvals_kernel.cc): LAPACK gesdd with jobz
 * "N" in x's precision (sgesdd for float32), as Paddle calls it. Out s is [k] for a single
 * matrix and [batch, k] otherwise: Paddle's kernel flattens every batch dim into one (x
 * [2, 3, 4, 5] gives [6, 4]), and icore gives the same dims. A failure to converge fails as
 * Paddle's. Legacy slots x, s. */
#include <string.h>

#include "kernels/cpu/lapack.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., m, n])");
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  if (m <= 0 || n <= 0) return ic_kfail_in(c, 0, 0, "expected m > 0 rows and n > 0 columns");
  const int64_t batch = ic_numel(x->ndim, x->dims) / (m * n);
  if (x->ndim == 2) {
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 1, (int64_t[]){k});
  } else {
    if (batch <= 0) return ic_kfail_in(c, 0, 0, "expected a batch of at least one matrix");
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, (int64_t[]){batch, k});
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *s = ic_out(c, 0, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t batch = ic_numel(x->ndim, x->dims) / (m * n);
  const bool f32 = x->dtype == IC_FP32;
  const size_t es = f32 ? sizeof(float) : sizeof(double);
  const int mi = (int)m, ni = (int)n, one = 1, query = -1;
  int info = 0;
  double wq = 0, dd[1] = {0};
  float wqf = 0, df[1] = {0};
  int di[1] = {0};
  if (f32) {
    sgesdd_("N", &mi, &ni, df, &mi, df, df, &one, df, &one, &wqf, &query, di, &info, 1);
    wq = wqf;
  } else {
    dgesdd_("N", &mi, &ni, dd, &mi, dd, dd, &one, dd, &one, &wq, &query, di, &info, 1);
  }
  const int64_t lwork = wq > 1 ? (int64_t)wq : 1;
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(m * n + lwork) + sizeof(int) * (size_t)(8 * k));
  if (!buf) return c->err->code;
  char *am = buf->data, *work = am + es * (size_t)(m * n);
  int *iwork = (int *)(work + es * (size_t)lwork);
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cmt(x, b, m, n, am);
    char *sv = (char *)s->data + es * (size_t)(b * k);
    if (f32) {
      sgesdd_("N", &mi, &ni, (float *)am, &mi, (float *)sv, df, &one, df, &one, (float *)work,
              &lw, iwork, &info, 1);
    } else {
      dgesdd_("N", &mi, &ni, (double *)am, &mi, (double *)sv, dd, &one, dd, &one,
              (double *)work, &lw, iwork, &info, 1);
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input x '%s': matrix %lld: LAPACK gesdd %s (info %d)",
                    ic_in_name(c, 0, 0), (long long)b,
                    info > 0 ? "did not converge" : "rejected an argument", info);
      break;
    }
  }
  ic_buffer_release(buf);
  return st;
}

static const ic_slotdef inputs[] = {{"x", 0}};
static const ic_slotdef outputs[] = {{"s", 0}};

const ic_opdef ic_op_svdvals = {
    .name = "svdvals", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
