/* diag_v2_grad: for diag_v2 (1-D X of n values: the square matrix of side n + |offset| with X
 * on diagonal `offset`; 2-D X: its diagonal `offset`), X@GRAD is, for a 1-D (or 0-D) X, the
 * diagonal `offset` of Out@GRAD, and for a 2-D X zeros with Out@GRAD put on that diagonal
 * (phi DiagGradKernel); padding_value has no gradient. Inputs X (meta only), Out@GRAD;
 * attributes offset, padding_value (unused). Float32 and float64. */
#include "kernels/cpu/kgrad.h"

static const ic_slotdef k_inputs[2] = {{"X", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

typedef struct diag_grad_attrs {
  int64_t offset;
} diag_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((diag_grad_attrs *)attrs)->offset = ic_ar_int(r, "offset", 0);
  (void)ic_ar_float(r, "padding_value", 0.0);
  return r->st;
}

/* The diagonal of an R x C matrix: its length and the (row, col) of element i. */
static int64_t diag_len(int64_t R, int64_t C, int64_t off) {
  const int64_t len = off >= 0 ? (C - off < R ? C - off : R) : (R + off < C ? R + off : C);
  return len < 0 ? 0 : len;
}

static ic_status infer(ic_kctx *c) {
  const diag_grad_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  const int64_t off = a->offset < 0 ? -a->offset : a->offset;
  if (x->ndim <= 1) {
    const int64_t side = (x->ndim ? x->dims[0] : 1) + off, d[2] = {side, side};
    if ((st = kg_expect(c, 1, g->dtype, 2, d, "diag_v2's Out for a 1-D X"))) return st;
  } else if (x->ndim == 2) {
    const int64_t len = diag_len(x->dims[0], x->dims[1], a->offset);
    if ((st = kg_expect(c, 1, g->dtype, 1, &len, "the diagonal's length"))) return st;
  } else {
    return ic_kfail_in(c, 0, 0, "expected rank 0, 1 or 2");
  }
  kg_out(c, 0, g->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const diag_grad_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t o = a->offset;
  if (x->ndim <= 1) {
    const int64_t n = x->ndim ? x->dims[0] : 1, side = g->dims[0];
    for (int64_t i = 0; i < n; i++) {
      const int64_t r = o >= 0 ? i : i - o, cc = o >= 0 ? i + o : i;
      kg_put(dx, i, kg_get(g, r * side + cc));
    }
    return IC_OK;
  }
  const int64_t C = x->dims[1], len = g->dims[0];
  kg_zero(dx);
  for (int64_t i = 0; i < len; i++) {
    const int64_t r = o >= 0 ? i : i - o, cc = o >= 0 ? i + o : i;
    kg_put(dx, r * C + cc, kg_get(g, i));
  }
  return IC_OK;
}

const ic_opdef ic_op_diag_v2_grad = {
    .name = "diag_v2_grad", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(diag_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
