/* What determinant_grad and slogdeterminant_grad share: both differentiate through the inverse
 * of each matrix of Input ([.., n, n]), d det(X) / dX = det(X) X^-T, so Input@GRAD = s X^-T
 * per matrix with a scale s from Out and Out@GRAD (phi DeterminantGradKernel,
 * SlogDeterminantGradKernel), in double, rounded once. Inputs Input, Out, Out@GRAD; float32
 * and float64. */
#ifndef IC_KERNELS_CPU_DETGRAD_H
#define IC_KERNELS_CPU_DETGRAD_H

#include <math.h>

#include "kernels/cpu/kgrad.h"
#include "kernels/cpu/lu.h"

enum { IC_DETGRAD_X, IC_DETGRAD_OUT, IC_DETGRAD_DOUT };

/* slog false: Out and Out@GRAD hold one determinant per matrix (the batch dims, [] or [1] for
 * one matrix); true: [2, batch..], the sign then log|det| of each. */
static inline ic_status ic_detgrad_infer(ic_kctx *c, bool slog) {
  ic_status st = ic_kcheck_dtype(c, IC_DETGRAD_X, 0, IC_DT_FLOAT);
  if (st || (st = kg_square(c, IC_DETGRAD_X))) return st;
  const ic_tensor *x = ic_in(c, IC_DETGRAD_X, 0);
  const int64_t nb = ic_numel(x->ndim - 2, x->dims), want = slog ? 2 * nb : nb;
  for (size_t s = IC_DETGRAD_OUT; s <= IC_DETGRAD_DOUT; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != want) {
      return ic_kfail_in(c, s, 0, "expected %s with %lld element(s), %s", ic_dtype_name(x->dtype),
                         (long long)want,
                         slog ? "[2, batch..]: sign and log|det| per matrix" : "one per matrix");
    }
  }
  kg_out(c, 0, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

/* s = Out@GRAD Out for the determinant, Out@GRAD's log|det| part for slogdeterminant (the sign
 * has no gradient). As Paddle, when any matrix has a zero determinant (a zero sign) the whole
 * gradient is 0 (determinant) or NaN (slogdeterminant). */
static inline ic_status ic_detgrad_run(ic_kctx *c, bool slog) {
  const ic_tensor *x = ic_in(c, IC_DETGRAD_X, 0), *o = ic_in(c, IC_DETGRAD_OUT, 0);
  const ic_tensor *g = ic_in(c, IC_DETGRAD_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t n = x->dims[x->ndim - 1], nn = n * n, B = ic_numel(x->ndim - 2, x->dims);
  for (int64_t q = 0; q < B; q++) {
    if (kg_get(o, q) == 0) {
      for (int64_t i = 0; i < ic_tensor_numel_(dx); i++) kg_put(dx, i, slog ? NAN : 0.0);
      return IC_OK;
    }
  }
  ic_buffer *b = ic_kscratch(c, (size_t)(2 * nn + n + 1) * sizeof(double));
  if (!b) return c->err->code;
  double *lu = b->data, *inv = lu + nn;
  int64_t *perm = (int64_t *)(inv + nn);
  ic_status st = IC_OK;
  for (int64_t q = 0; q < B; q++) {
    for (int64_t i = 0; i < nn; i++) lu[i] = kg_get(x, q * nn + i);
    if (!ic_lu_invert(lu, inv, perm, n)) {
      st = ic_kfail_in(c, IC_DETGRAD_X, 0, "matrix %lld is singular, but Out holds a nonzero %s",
                       (long long)q, slog ? "sign" : "determinant");
      break;
    }
    const double s = slog ? kg_get(g, B + q) : kg_get(g, q) * kg_get(o, q);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) kg_put(dx, q * nn + i * n + j, s * inv[j * n + i]);
  }
  ic_buffer_release(b);
  return st;
}

extern const ic_slotdef ic_detgrad_inputs[3];
extern const ic_slotdef ic_detgrad_outputs[1];

#endif
