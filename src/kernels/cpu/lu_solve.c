/* lu_solve: out = A^-1 b (trans "N") or A^-T b ("T"; "C" is "T" for real A), with A given
 * by its LU factorization (paddle.linalg.lu's lu and 1-based int32 pivots) (Paddle 3's
 * paddle.linalg.lu_solve; paddle/phi/kernels/cpu/lu_solve_kernel.cc: LAPACK getrs per
 * matrix). b [..., n, k], lu [..., n, n] and pivots [..., n] with the same batch dims (the
 * Python API broadcasts them first), float32 or float64, out b's dims and dtype. icore
 * solves in double (dgetrs) and rounds float32 results once, as its other solvers do
 * (Paddle runs sgetrs on float32: the same within rounding). Pivots out of [1, n] are
 * refused (LAPACK would read out of bounds); a singular U gives inf / NaN as getrs does.
 * Paddle also registers complex64 / complex128, which icore does not implement here.
 * Legacy slots b, lu, pivots -> out; attribute trans. */
#include <string.h>

#include "kernels/cpu/lapack.h"

typedef struct lu_solve_attrs {
  char trans[2];
} lu_solve_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lu_solve_attrs *a = attrs;
  const char *t = ic_ar_str(r, "trans", "N");
  if (r->st) return r->st;
  if (strcmp(t, "N") && strcmp(t, "T") && strcmp(t, "C")) {
    return ic_ar_fail(r, "trans", "is '%s', expected \"N\", \"T\" or \"C\"", t);
  }
  a->trans[0] = t[0] == 'N' ? 'N' : 'T';
  a->trans[1] = 0;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *b = ic_in(c, 0, 0), *lu = ic_in(c, 1, 0), *p = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (lu->dtype != b->dtype) {
    return ic_kfail_in(c, 1, 0, "expected b's dtype %s", ic_dtype_name(b->dtype));
  }
  if ((st = ic_kcheck_dtype(c, 2, 0, IC_DT(IC_INT32)))) return st;
  if ((st = ic_la_check_size(c, 0)) || (st = ic_la_check_size(c, 1))) return st;
  if (b->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., n, k])");
  if (lu->ndim != b->ndim) return ic_kfail_in(c, 1, 0, "expected b's rank %d", b->ndim);
  if (p->ndim != b->ndim - 1) return ic_kfail_in(c, 2, 0, "expected rank %d", b->ndim - 1);
  const int r = b->ndim;
  const int64_t n = lu->dims[r - 1];
  if (lu->dims[r - 2] != n) return ic_kfail_in(c, 1, 0, "expected square matrices");
  if (b->dims[r - 2] != n) return ic_kfail_in(c, 0, 0, "expected %lld rows (lu's)", (long long)n);
  if (p->dims[r - 2] != n) return ic_kfail_in(c, 2, 0, "expected %lld pivots", (long long)n);
  for (int k = 0; k < r - 2; k++) {
    if (lu->dims[k] != b->dims[k]) return ic_kfail_in(c, 1, 0, "expected b's batch dims");
    if (p->dims[k] != b->dims[k]) return ic_kfail_in(c, 2, 0, "expected b's batch dims");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), b->dtype, b->ndim, b->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const lu_solve_attrs *a = c->attrs;
  const ic_tensor *b = ic_in(c, 0, 0), *lu = ic_in(c, 1, 0), *p = ic_in(c, 2, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int r = b->ndim;
  const int64_t n = b->dims[r - 2], k = b->dims[r - 1];
  if (n == 0 || k == 0) return IC_OK;
  const int64_t batch = ic_numel(b->ndim, b->dims) / (n * k);
  const int32_t *piv = p->data;
  for (int64_t i = 0; i < batch * n; i++) {
    if (piv[i] < 1 || piv[i] > n) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                      "input pivots '%s' holds %d at element %lld, expected 1..%lld",
                      ic_in_name(c, 2, 0), piv[i], (long long)i, (long long)n);
    }
  }
  ic_buffer *buf = ic_kscratch(c, sizeof(double) * (size_t)(n * n + n * k));
  if (!buf) return c->err->code;
  double *am = buf->data, *bm = am + n * n;
  const int ni = (int)n, ki = (int)k;
  int info = 0;
  for (int64_t i = 0; i < batch; i++) {
    ic_la_load_cm(lu, i, n, n, am);
    ic_la_load_cm(b, i, n, k, bm);
    dgetrs_(a->trans, &ni, &ki, am, &ni, piv + i * n, bm, &ni, &info, 1);
    ic_la_store_cm(out, i, n, k, bm, n);
  }
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"b", 0}, {"lu", 0}, {"pivots", 0}};
static const ic_slotdef outputs[] = {{"out", 0}};

const ic_opdef ic_op_lu_solve = {
    .name = "lu_solve", .n_inputs = 3, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lu_solve_attrs), .parse = parse, .infer = infer, .cpu = run,
};
