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
#include "kernels/cpu/lu_solve.h"

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_lu_solve_check(c);
  if (st) return st;
  const ic_tensor *b = ic_in(c, 0, 0);
  ic_tensor_set_meta(ic_out(c, 0, 0), b->dtype, b->ndim, b->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_lu_solve_attrs *a = c->attrs;
  const ic_tensor *b = ic_in(c, 0, 0), *lu = ic_in(c, 1, 0), *p = ic_in(c, 2, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int r = b->ndim;
  const int64_t n = b->dims[r - 2], k = b->dims[r - 1];
  if (n == 0 || k == 0) return IC_OK;
  const int64_t batch = ic_numel(b->ndim, b->dims) / (n * k);
  ic_status st = ic_lu_solve_check_pivots(c, batch * n, n);
  if (st) return st;
  const int32_t *piv = p->data;
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
    .attrs_size = sizeof(ic_lu_solve_attrs), .parse = ic_lu_solve_parse, .infer = infer, .cpu = run,
};
