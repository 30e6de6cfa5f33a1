/* slogdeterminant_grad: for Out = [sign, log|det|] of each matrix of Input's last two dims
 * (slogdeterminant: Out [2, batch..]), Input@GRAD = Out@GRAD[1] Input^-T, the log-magnitude's
 * gradient; the sign has none (phi SlogDeterminantGradKernel), in double, rounded once. When
 * any matrix is singular (a sign of 0 in Out) the whole gradient is NaN, as Paddle fills it.
 * Inputs Input ([.., n, n]), Out, Out@GRAD ([2, ..]); float32 and float64. */
#include <math.h>

#include "kernels/cpu/kgrad.h"
#include "kernels/cpu/lu.h"

enum { IN_X, IN_OUT, IN_DOUT };
static const ic_slotdef k_inputs[3] = {{"Input", 0}, {"Out", 0}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"Input@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st || (st = kg_square(c, IN_X))) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  const int64_t nb = ic_numel(x->ndim - 2, x->dims);
  for (size_t s = IN_OUT; s <= IN_DOUT; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (t->dtype != x->dtype || ic_tensor_numel_(t) != 2 * nb) {
      return ic_kfail_in(c, s, 0, "expected %s with %lld elements ([2, batch..]: sign and "
                         "log|det| per matrix)", ic_dtype_name(x->dtype), (long long)(2 * nb));
    }
  }
  kg_out(c, 0, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *o = ic_in(c, IN_OUT, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t n = x->dims[x->ndim - 1], nn = n * n, B = ic_numel(x->ndim - 2, x->dims);
  for (int64_t q = 0; q < B; q++) {
    if (kg_get(o, q) == 0) {
      for (int64_t i = 0; i < ic_tensor_numel_(dx); i++) kg_put(dx, i, NAN);
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
      st = ic_kfail_in(c, IN_X, 0, "matrix %lld is singular, but Out holds a nonzero sign",
                       (long long)q);
      break;
    }
    const double s = kg_get(g, B + q);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) kg_put(dx, q * nn + i * n + j, s * inv[j * n + i]);
  }
  ic_buffer_release(b);
  return st;
}

const ic_opdef ic_op_slogdeterminant_grad = {
    .name = "slogdeterminant_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
