/* cholesky_solve: Out = A^-1 X for each pair of matrices, where A = L L^T is given by its
 * Cholesky factor Y (lower; with `upper` the upper U, A = U^T U; only that triangle is read).
 * X [..., M, N] (the right-hand sides), Y [..., M, M]; their batch dims broadcast numpy-style
 * and Out is [broadcast..., M, N]. float32 or float64. As paddle/phi/kernels/impl/
 * cholesky_solve_kernel_impl.h (LAPACK potrs per matrix), here potrs in double, rounded once
 * for float32. No singularity check (Paddle makes none: a zero on Y's diagonal gives inf or
 * NaN). */
#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

typedef struct cs_attrs {
  bool upper;
} cs_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((cs_attrs *)attrs)->upper = ic_ar_bool(r, "upper", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if ((st = ic_la_check_size(c, 1))) return st;
  if (x->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., M, N])");
  if (y->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected X's dtype");
  if (y->ndim < 2 || y->dims[y->ndim - 1] != y->dims[y->ndim - 2]) {
    return ic_kfail_in(c, 1, 0, "expected square matrices [..., M, M] (rank >= 2)");
  }
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1];
  if (y->dims[y->ndim - 1] != m) {
    return ic_kfail_in(c, 1, 0, "expected [..., %lld, %lld] (M = X's dim -2)", (long long)m,
                       (long long)m);
  }
  ic_la_bcast b;
  if (!ic_la_bcast_init(&b, x->dims, x->ndim - 2, y->dims, y->ndim - 2)) {
    char xs[128];
    return ic_kfail_in(c, 1, 0, "its batch dims do not broadcast with X's %s",
                       ic_la_dims(x, xs, sizeof xs));
  }
  int64_t od[IC_LA_MAXRANK + 2];
  for (int k = 0; k < b.nb; k++) od[k] = b.dims[k];
  od[b.nb] = m;
  od[b.nb + 1] = n;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, b.nb + 2, od);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const cs_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (ic_tensor_numel_(o) == 0) return IC_OK;
  const int64_t m = x->dims[x->ndim - 2], n = x->dims[x->ndim - 1];
  ic_la_bcast b;
  ic_la_bcast_init(&b, x->dims, x->ndim - 2, y->dims, y->ndim - 2);
  ic_buffer *buf = ic_kscratch(c, (size_t)(m * m + m * n) * sizeof(double));
  if (!buf) return c->err->code;
  double *am = buf->data, *bm = am + m * m;
  const int mi = (int)m, ni = (int)n, ld = m > 1 ? (int)m : 1;
  for (int64_t i = 0; i < b.count; i++) {
    int64_t xi, yi;
    ic_la_bcast_at(&b, i, &xi, &yi);
    ic_la_load_cm(y, yi, m, m, am);
    ic_la_load_cm(x, xi, m, n, bm);
    int info = 0;
    dpotrs_(a->upper ? "U" : "L", &mi, &ni, am, &ld, bm, &ld, &info, 1);
    ic_la_store_cm(o, i, m, n, bm, m);
  }
  ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_cholesky_solve = {
    .name = "cholesky_solve", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(cs_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
