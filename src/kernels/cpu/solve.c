/* solve (paddle.linalg.solve): Out = X^-1 Y for each square X [..., M, M] (float32 or
 * float64). Y is a batch of right-hand-side matrices [..., M, N], or vectors: Y of rank 1
 * ([M]) or with Y's dims = X's dims without the last ([..., M]), which solve as [..., M, 1]
 * and drop that dim in Out. The batch dims broadcast numpy-style: Out is [broadcast..., M, N]
 * (vectors: [broadcast..., M]). As paddle/phi/kernels/impl/solve_kernel_impl.h (Eigen's
 * partial-pivoting LU per matrix), here LAPACK getrf/getrs in double, rounded once for
 * float32; a singular X (a zero pivot) fails as Paddle's "not invertible". */
#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

/* Y as matrices: its dims with a trailing 1 in the vector case. */
static bool is_vector(const ic_tensor *x, const ic_tensor *y) {
  if (y->ndim == 1) return true;
  if (y->ndim != x->ndim - 1) return false;
  for (int k = 0; k < y->ndim; k++) {
    if (y->dims[k] != x->dims[k]) return false;
  }
  return true;
}

static void y_matrix_dims(const ic_tensor *x, const ic_tensor *y, int64_t *yd, int *ynd) {
  for (int k = 0; k < y->ndim; k++) yd[k] = y->dims[k];
  *ynd = y->ndim;
  if (is_vector(x, y)) yd[(*ynd)++] = 1;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if ((st = ic_la_check_size(c, 1))) return st;
  if (x->ndim < 2 || x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "expected square matrices [..., M, M] (rank >= 2)");
  }
  if (y->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected X's dtype");
  if (y->ndim < 1 || y->ndim > IC_LA_MAXRANK) {
    return ic_kfail_in(c, 1, 0, "expected rank 1 (a vector) or >= 2");
  }
  const int64_t m = x->dims[x->ndim - 1];
  int64_t yd[IC_LA_MAXRANK + 1];
  int ynd;
  y_matrix_dims(x, y, yd, &ynd);
  if (ynd < 2 || yd[ynd - 2] != m) {
    return ic_kfail_in(c, 1, 0, "expected [..., %lld, N] or a vector of %lld (M = X's last "
                       "dim)", (long long)m, (long long)m);
  }
  ic_la_bcast b;
  if (!ic_la_bcast_init(&b, x->dims, x->ndim - 2, yd, ynd - 2)) {
    char xs[128];
    return ic_kfail_in(c, 1, 0, "its batch dims do not broadcast with X's %s",
                       ic_la_dims(x, xs, sizeof xs));
  }
  int64_t od[IC_LA_MAXRANK + 2];
  for (int k = 0; k < b.nb; k++) od[k] = b.dims[k];
  od[b.nb] = m;
  od[b.nb + 1] = yd[ynd - 1];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, b.nb + (is_vector(x, y) ? 1 : 2), od);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (ic_tensor_numel_(o) == 0) return IC_OK;
  const int64_t m = x->dims[x->ndim - 1];
  int64_t yd[IC_LA_MAXRANK + 1];
  int ynd;
  y_matrix_dims(x, y, yd, &ynd);
  const int64_t n = yd[ynd - 1];
  ic_la_bcast b;
  ic_la_bcast_init(&b, x->dims, x->ndim - 2, yd, ynd - 2);
  ic_buffer *buf = ic_kscratch(c, (size_t)(m * m + m * n) * sizeof(double) +
                                      (size_t)m * sizeof(int));
  if (!buf) return c->err->code;
  double *am = buf->data, *bm = am + m * m;
  int *piv = (int *)(bm + m * n);
  const int mi = (int)m, ni = (int)n, ld = m > 1 ? (int)m : 1;
  ic_status st = IC_OK;
  for (int64_t i = 0; i < b.count; i++) {
    int64_t xi, yi;
    ic_la_bcast_at(&b, i, &xi, &yi);
    ic_la_load_cm(x, xi, m, m, am);
    ic_la_load_cm(y, yi, m, n, bm);
    int info = 0;
    dgetrf_(&mi, &mi, am, &ld, piv, &info);
    if (info != 0) {
      st = ic_kfail(c, IC_ERR_KERNEL, "input X '%s': matrix %lld is not invertible (singular: "
                    "zero pivot %d)", ic_in_name(c, 0, 0), (long long)xi, info);
      break;
    }
    dgetrs_("N", &mi, &ni, am, &ld, piv, bm, &ld, &info, 1);
    ic_la_store_cm(o, i, m, n, bm, m);
  }
  ic_buffer_release(buf);
  return st;
}

const ic_opdef ic_op_solve = {
    .name = "solve", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .infer = infer, .cpu = run,
};
