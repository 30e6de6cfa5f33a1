/* triangular_solve: Out = op(A)^-1 B for each pair, A = X [..., M, M] triangular (the lower
 * triangle, or with `upper` the upper one; the other is not read), op(A) = A or with
 * `transpose` A^T, and with `unitriangular` a unit diagonal assumed (not read). B = Y
 * [..., M, N]; the batch dims broadcast numpy-style, Out is [broadcast..., M, N]. float32 or
 * float64, or complex64 / complex128 (transpose: A^T, not conjugated, as Paddle's). As
 * paddle/phi/kernels/cpu/triangular_solve_kernel.cc (BLAS trsm per matrix), here dtrsm in
 * double, rounded once for float32, and ctrsm / ztrsm in the complex dtypes; no
 * singularity check (Paddle makes none: a zero on the diagonal gives inf or NaN). */
#include "kernels/cpu/lapack.h"

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Y", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

typedef struct ts_attrs {
  bool upper, transpose, unit;
} ts_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ts_attrs *a = attrs;
  a->upper = ic_ar_bool(r, "upper", true);
  a->transpose = ic_ar_bool(r, "transpose", false);
  a->unit = ic_ar_bool(r, "unitriangular", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT | IC_DT_COMPLEX);
  if (st) return st;
  if ((st = ic_la_check_size(c, 0))) return st;
  if ((st = ic_la_check_size(c, 1))) return st;
  if (x->ndim < 2 || x->dims[x->ndim - 1] != x->dims[x->ndim - 2]) {
    return ic_kfail_in(c, 0, 0, "expected square matrices [..., M, M] (rank >= 2)");
  }
  const int64_t m = x->dims[x->ndim - 1];
  if (y->dtype != x->dtype) return ic_kfail_in(c, 1, 0, "expected X's dtype");
  if (y->ndim < 2 || y->dims[y->ndim - 2] != m) {
    return ic_kfail_in(c, 1, 0, "expected [..., %lld, N] (rank >= 2, M = X's last dim)",
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
  od[b.nb + 1] = y->dims[y->ndim - 1];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, b.nb + 2, od);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ts_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (ic_tensor_numel_(o) == 0) return IC_OK;
  const int64_t m = x->dims[x->ndim - 1], n = y->dims[y->ndim - 1];
  ic_la_bcast b;
  ic_la_bcast_init(&b, x->dims, x->ndim - 2, y->dims, y->ndim - 2);
  const bool cplx = x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128;
  const size_t es = cplx ? ic_dtype_size(x->dtype) : sizeof(double);
  ic_buffer *buf = ic_kscratch(c, (size_t)(m * m + m * n) * es);
  if (!buf) return c->err->code;
  char *am = buf->data, *bm = am + es * (size_t)(m * m);
  const int mi = (int)m, ni = (int)n, ld = m > 1 ? (int)m : 1;
  const double one[2] = {1.0, 0.0};
  const float onef[2] = {1.0f, 0.0f};
  const char *uplo = a->upper ? "U" : "L", *tr = a->transpose ? "T" : "N";
  const char *dg = a->unit ? "U" : "N";
  for (int64_t i = 0; i < b.count; i++) {
    int64_t xi, yi;
    ic_la_bcast_at(&b, i, &xi, &yi);
    if (cplx) {
      ic_la_load_cmt(x, xi, m, m, am);
      ic_la_load_cmt(y, yi, m, n, bm);
      if (x->dtype == IC_COMPLEX64) {
        ctrsm_("L", uplo, tr, dg, &mi, &ni, onef, (float *)am, &ld, (float *)bm, &ld, 1, 1, 1, 1);
      } else {
        ztrsm_("L", uplo, tr, dg, &mi, &ni, one, (double *)am, &ld, (double *)bm, &ld, 1, 1, 1, 1);
      }
      ic_la_store_cmt(o, i, m, n, bm, m);
      continue;
    }
    ic_la_load_cm(x, xi, m, m, (double *)am);
    ic_la_load_cm(y, yi, m, n, (double *)bm);
    dtrsm_("L", uplo, tr, dg, &mi, &ni, one, (double *)am, &ld, (double *)bm, &ld, 1, 1, 1, 1);
    ic_la_store_cm(o, i, m, n, (double *)bm, m);
  }
  ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_triangular_solve = {
    .name = "triangular_solve", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(ts_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
