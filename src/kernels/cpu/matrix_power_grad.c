/* matrix_power_grad: for Out = X^n per matrix of the last two dims (matrix_power), with
 * G = Out@GRAD (phi MatrixPowerGradKernel; all in double, rounded once):
 *   n = 0: 0;  n = 1: G;  n = -1: -Out^T G Out^T;
 *   n > 1: sum_{i=0}^{n-1} (X^i)^T G (X^{n-1-i})^T;
 *   n < -1: with Y = X^-1 and m = -n, dY by the rule above, then -Y^T dY Y^T.
 * Inputs X, Out, Out@GRAD ([.., k, k]); attribute n. A singular X with n < -1 is an error.
 * Float32 and float64. */
#include "kernels/cpu/kgrad.h"
#include "kernels/cpu/lu.h"

enum { IN_X, IN_OUT, IN_DOUT };
static const ic_slotdef k_inputs[3] = {{"X", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

typedef struct mp_grad_attrs {
  int64_t n;
} mp_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((mp_grad_attrs *)attrs)->n = ic_ar_int(r, "n", 1);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st || (st = kg_square(c, IN_X))) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if ((st = kg_expect(c, IN_OUT, x->dtype, x->ndim, x->dims, "X's"))) return st;
  if ((st = kg_expect(c, IN_DOUT, x->dtype, x->ndim, x->dims, "X's"))) return st;
  kg_out(c, 0, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const int64_t pw = ((const mp_grad_attrs *)c->attrs)->n;
  const ic_tensor *x = ic_in(c, IN_X, 0), *o = ic_in(c, IN_OUT, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t n = x->dims[x->ndim - 1], nn = n * n, B = nn ? ic_tensor_numel_(x) / nn : 0;
  const int64_t m = pw < 0 ? -pw : pw;
  if (pw == 0) {
    kg_zero(dx);
    return IC_OK;
  }
  if (pw == 1) {
    kg_copy(dx, g);
    return IC_OK;
  }
  /* scratch: base, powers base^0..base^(m-1), G, acc, two temporaries, LU copy, perm */
  const int64_t nbuf = (m + 6) * nn + n + 1;
  ic_buffer *b = ic_kscratch(c, (size_t)nbuf * sizeof(double));
  if (!b) return c->err->code;
  double *base = b->data, *pows = base + nn, *gi = pows + m * nn, *acc = gi + nn, *t1 = acc + nn,
         *t2 = t1 + nn, *lu = t2 + nn;
  int64_t *perm = (int64_t *)(lu + nn);
  ic_status st = IC_OK;
  for (int64_t q = 0; q < B && !st; q++) {
    for (int64_t i = 0; i < nn; i++) gi[i] = kg_get(g, q * nn + i);
    if (pw == -1) {
      for (int64_t i = 0; i < nn; i++) base[i] = kg_get(o, q * nn + i);
      kg_mm(base, true, gi, false, t1, n);
      kg_mm(t1, false, base, true, acc, n);
      for (int64_t i = 0; i < nn; i++) kg_put(dx, q * nn + i, -acc[i]);
      continue;
    }
    for (int64_t i = 0; i < nn; i++) lu[i] = base[i] = kg_get(x, q * nn + i);
    if (pw < 0 && !ic_lu_invert(lu, base, perm, n)) {
      st = ic_kfail_in(c, IN_X, 0, "matrix %lld is singular, so X^%lld has no gradient",
                       (long long)q, (long long)pw);
      break;
    }
    /* pows[i] = base^i */
    for (int64_t i = 0; i < nn; i++) pows[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
    for (int64_t k = 1; k < m; k++)
      kg_mm(pows + (k - 1) * nn, false, base, false, pows + k * nn, n);
    memset(acc, 0, (size_t)nn * sizeof(double));
    for (int64_t i = 0; i < m; i++) {
      kg_mm(pows + i * nn, true, gi, false, t1, n);
      kg_mm(t1, false, pows + (m - 1 - i) * nn, true, t2, n);
      for (int64_t e = 0; e < nn; e++) acc[e] += t2[e];
    }
    if (pw < 0) {
      kg_mm(base, true, acc, false, t1, n);
      kg_mm(t1, false, base, true, acc, n);
      for (int64_t e = 0; e < nn; e++) acc[e] = -acc[e];
    }
    for (int64_t i = 0; i < nn; i++) kg_put(dx, q * nn + i, acc[i]);
  }
  ic_buffer_release(b);
  return st;
}

const ic_opdef ic_op_matrix_power_grad = {
    .name = "matrix_power_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(mp_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
