/* inverse_grad: for Output = Input^-1 (inverse, per matrix of the last two dims), Input@GRAD
 * = -Output^T Output@GRAD Output^T (phi InverseGradKernel), in double, rounded once. Inputs
 * Output, Output@GRAD ([.., n, n]); float32 and float64. */
#include "kernels/cpu/kgrad.h"

static const ic_slotdef k_inputs[2] = {{"Output", 0}, {"Output@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"Input@GRAD", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st || (st = kg_square(c, 0))) return st;
  const ic_tensor *o = ic_in(c, 0, 0);
  if ((st = kg_expect(c, 1, o->dtype, o->ndim, o->dims, "Output's"))) return st;
  kg_out(c, 0, o->dtype, o->ndim, o->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *o = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t n = o->dims[o->ndim - 1], nn = n * n, B = nn ? ic_tensor_numel_(o) / nn : 0;
  ic_buffer *b = ic_kscratch(c, (size_t)(4 * nn + 1) * sizeof(double));
  if (!b) return c->err->code;
  double *oi = b->data, *gi = oi + nn, *t = gi + nn, *r = t + nn;
  for (int64_t q = 0; q < B; q++) {
    for (int64_t i = 0; i < nn; i++) {
      oi[i] = kg_get(o, q * nn + i);
      gi[i] = kg_get(g, q * nn + i);
    }
    kg_mm(oi, true, gi, false, t, n);
    kg_mm(t, false, oi, true, r, n);
    for (int64_t i = 0; i < nn; i++) kg_put(dx, q * nn + i, -r[i]);
  }
  ic_buffer_release(b);
  return IC_OK;
}

const ic_opdef ic_op_inverse_grad = {
    .name = "inverse_grad", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
};
