/* matrix_rank_atol_rtol (paddle.linalg.matrix_rank with atol / rtol): out int64 = the number
 * of singular values of each matrix of x (float32, float64, complex64 or complex128,
 * [..., m, n]) above max(atol, rtol * the largest), atol and rtol tensors of x's real dtype
 * whose dims broadcast numpy-style with x's batch dims (out: the broadcast dims); without
 * rtol (optional) the default eps(dtype) * max(m, n). hermitian: the magnitudes of the
 * eigenvalues stand for the singular values. As Paddle 3.3's matrix_rank_atol_rtol kernel
 * (matrix_rank.h: LAPACK in x's dtype, compared in it). */
#include "kernels/cpu/matrix_rank.h"

enum { IN_X, IN_ATOL, IN_RTOL };
static const ic_slotdef k_inputs[3] = {{"x", 0}, {"atol", 0}, {"rtol", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"out", 0}};

typedef struct mrar_attrs {
  bool hermitian;
} mrar_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((mrar_attrs *)attrs)->hermitian = ic_ar_bool(r, "hermitian", false);
  return r->st;
}

/* x's batch dims broadcast with atol's (b1), then with rtol's (b2, when present). */
static bool bcast(const ic_kctx *c, ic_la_bcast *b1, ic_la_bcast *b2) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *at = ic_in(c, IN_ATOL, 0), *rt = ic_in(c, IN_RTOL, 0);
  if (!ic_la_bcast_init(b1, x->dims, x->ndim - 2, at->dims, at->ndim)) return false;
  if (!rt) return true;
  return ic_la_bcast_init(b2, b1->dims, b1->nb, rt->dims, rt->ndim);
}

static ic_status infer(ic_kctx *c) {
  const mrar_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, IN_X))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, IN_X, 0, "expected rank >= 2 ([..., m, n])");
  if (a->hermitian && x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, IN_X, 0, "expected square matrices (hermitian is true)");
  }
  const ic_dtype rd = x->dtype == IC_COMPLEX64 ? IC_FP32 : x->dtype == IC_COMPLEX128 ? IC_FP64
                                                                                : x->dtype;
  for (size_t s = IN_ATOL; s <= IN_RTOL; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t && t->dtype != rd) {
      return ic_kfail_in(c, s, 0, "expected %s (x's real dtype)", ic_dtype_name(rd));
    }
  }
  ic_la_bcast b1, b2;
  if (!bcast(c, &b1, &b2)) {
    char xs[128];
    return ic_kfail_in(c, IN_ATOL, 0, "atol's and rtol's dims do not broadcast with x's batch "
                       "dims (x is %s)", ic_la_dims(x, xs, sizeof xs));
  }
  const ic_la_bcast *b = ic_in(c, IN_RTOL, 0) ? &b2 : &b1;
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT64, b->nb, b->dims);
  return IC_OK;
}

static void tol_of(const void *ud, int64_t i, double eps_rtol, int64_t *xi, double *atol,
                   double *rtol) {
  const ic_kctx *c = ud;
  const ic_tensor *at = ic_in(c, IN_ATOL, 0), *rt = ic_in(c, IN_RTOL, 0);
  ic_la_bcast b1, b2;
  bcast(c, &b1, &b2);
  int64_t i1 = i, ri = 0, ai = 0;
  if (rt) ic_la_bcast_at(&b2, i, &i1, &ri);
  ic_la_bcast_at(&b1, i1, xi, &ai);
  *atol = ic_read_f64(at, ai);
  *rtol = rt ? ic_read_f64(rt, ri) : eps_rtol;
}

static ic_status run(ic_kctx *c) {
  return ic_mrank_run(c, ((const mrar_attrs *)c->attrs)->hermitian, tol_of, c);
}

const ic_opdef ic_op_matrix_rank_atol_rtol = {
    .name = "matrix_rank_atol_rtol", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(mrar_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
