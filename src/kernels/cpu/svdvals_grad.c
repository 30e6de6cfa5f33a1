/* svdvals_grad: x@GRAD = U diag(s@GRAD) VH for each matrix of x, with U, VH of x's reduced
 * SVD recomputed as Paddle's SvdvalsGradKernel does (paddle/phi/kernels/impl/
 * svdvals_grad_kernel_impl.h: svd with full_matrices false, then two matmuls): LAPACK gesdd
 * (jobz "S") in x's precision, the product summed in double and rounded once (the product
 * does not depend on the signs LAPACK picks for the vectors). s@GRAD is [k] for one matrix
 * and [batch, k] otherwise (svdvals' flattened batch); icore takes any batch rank (Paddle's
 * matmul fails to broadcast a flattened batch against x's for rank > 3). float32, float64.
 * Slots x, s@GRAD -> x@GRAD as Paddle 3.3.1 writes them. */
#include <string.h>

#include "kernels/cpu/lapack.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., m, n])");
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  if (m <= 0 || n <= 0) return ic_kfail_in(c, 0, 0, "expected m > 0 rows and n > 0 columns");
  const int64_t batch = ic_numel(x->ndim, x->dims) / (m * n);
  const bool ok = g->dtype == x->dtype &&
                  (x->ndim == 2 ? ic_dims_equal(g->ndim, g->dims, 1, (int64_t[]){k})
                                : ic_dims_equal(g->ndim, g->dims, 2, (int64_t[]){batch, k}));
  if (!ok) {
    return ic_kfail_in(c, 1, 0, "expected %s[%s%lld], svdvals' output",
                       ic_dtype_name(x->dtype), x->ndim == 2 ? "" : "batch, ", (long long)k);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1], k = m < n ? m : n;
  const int64_t batch = ic_numel(x->ndim, x->dims) / (m * n);
  if (batch == 0) return IC_OK;
  const bool f32 = x->dtype == IC_FP32;
  const size_t es = f32 ? sizeof(float) : sizeof(double);
  const int mi = (int)m, ni = (int)n, ldu = (int)m, ldvt = (int)k, query = -1;
  int info = 0;
  double wq = 0, dd[1] = {0};
  float wqf = 0, df[1] = {0};
  int di[1] = {0};
  if (f32) {
    sgesdd_("S", &mi, &ni, df, &mi, df, df, &ldu, df, &ldvt, &wqf, &query, di, &info, 1);
    wq = wqf;
  } else {
    dgesdd_("S", &mi, &ni, dd, &mi, dd, dd, &ldu, dd, &ldvt, &wq, &query, di, &info, 1);
  }
  const int64_t lwork = wq > 1 ? (int64_t)wq : 1;
  ic_buffer *buf = ic_kscratch(c, es * (size_t)(m * n + k + m * k + k * n + lwork) +
                                      sizeof(int) * (size_t)(8 * k));
  if (!buf) return c->err->code;
  char *am = buf->data, *sv = am + es * (size_t)(m * n), *um = sv + es * (size_t)k;
  char *vm = um + es * (size_t)(m * k), *work = vm + es * (size_t)(k * n);
  int *iwork = (int *)(work + es * (size_t)lwork);
  const int lw = (int)lwork;
  ic_status st = IC_OK;
  for (int64_t b = 0; b < batch; b++) {
    ic_la_load_cmt(x, b, m, n, am);
    if (f32) {
      sgesdd_("S", &mi, &ni, (float *)am, &mi, (float *)sv, (float *)um, &ldu, (float *)vm,
              &ldvt, (float *)work, &lw, iwork, &info, 1);
    } else {
      dgesdd_("S", &mi, &ni, (double *)am, &mi, (double *)sv, (double *)um, &ldu,
              (double *)vm, &ldvt, (double *)work, &lw, iwork, &info, 1);
    }
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input x '%s': matrix %lld: LAPACK gesdd %s (info %d)",
                    ic_in_name(c, 0, 0), (long long)b,
                    info > 0 ? "did not converge" : "rejected an argument", info);
      break;
    }
    /* U column-major m x k (ld m), VH column-major k x n (ld k) */
    for (int64_t i = 0; i < m; i++) {
      for (int64_t j = 0; j < n; j++) {
        double acc = 0;
        for (int64_t q = 0; q < k; q++) {
          const double u = ic_la_at(um, f32, q * m + i), v = ic_la_at(vm, f32, j * k + q);
          acc += u * ic_la_at(g->data, f32, b * k + q) * v;
        }
        ic_la_set(dx, b * m * n + i * n + j, acc);
      }
    }
  }
  ic_buffer_release(buf);
  return st;
}

static const ic_slotdef inputs[] = {{"x", 0}, {"s@GRAD", 0}};
static const ic_slotdef outputs[] = {{"x@GRAD", 0}};

const ic_opdef ic_op_svdvals_grad = {
    .name = "svdvals_grad", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .infer = infer, .cpu = run,
};
