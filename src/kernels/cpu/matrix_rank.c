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
#include "kernels/cpu/matrix_rank.h"

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

static void tol_of(const void *ud, int64_t i, double eps_rtol, int64_t *xi, double *atol,
                   double *rtol) {
  ic_kctx *c = (ic_kctx *)ud;
  const mr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *t = ic_in(c, 1, 0);
  *xi = i;
  *rtol = a->use_default_tol ? eps_rtol : 0.0;
  if (!t) {
    *atol = a->use_default_tol ? 0.0 : a->tol;
    return;
  }
  ic_la_bcast b;
  ic_la_bcast_init(&b, x->dims, x->ndim - 2, t->dims, t->ndim);
  int64_t ti;
  ic_la_bcast_at(&b, i, xi, &ti);
  *atol = ic_read_f64(t, ti);
}

static ic_status run(ic_kctx *c) {
  return ic_mrank_run(c, ((const mr_attrs *)c->attrs)->hermitian, tol_of, c);
}

const ic_opdef ic_op_matrix_rank = {
    .name = "matrix_rank", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(mr_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
