/* tril_triu_grad: X@GRAD = Out@GRAD with the same elements zeroed as tril_triu zeroes in its
 * last two dims (lower: kept where j - i <= diagonal; else kept where j - i >= diagonal)
 * (phi TrilTriuGradKernel). Input Out@GRAD (rank >= 2); attributes diagonal, lower. Float32
 * and float64. */
#include "kernels/cpu/kgrad.h"

static const ic_slotdef k_inputs[1] = {{"Out@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

typedef struct tt_grad_attrs {
  int64_t diagonal;
  bool lower;
} tt_grad_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  tt_grad_attrs *a = attrs;
  a->diagonal = ic_ar_int(r, "diagonal", 0);
  a->lower = ic_ar_bool(r, "lower", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *g = ic_in(c, 0, 0);
  if (g->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2");
  kg_out(c, 0, g->dtype, g->ndim, g->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const tt_grad_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 0, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t R = g->dims[g->ndim - 2], C = g->dims[g->ndim - 1];
  const int64_t B = ic_numel(g->ndim - 2, g->dims);
  for (int64_t b = 0; b < B; b++) {
    for (int64_t i = 0; i < R; i++) {
      for (int64_t j = 0; j < C; j++) {
        const int64_t at = (b * R + i) * C + j;
        const bool keep = a->lower ? j - i <= a->diagonal : j - i >= a->diagonal;
        kg_put(dx, at, keep ? kg_get(g, at) : 0.0);
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_tril_triu_grad = {
    .name = "tril_triu_grad", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(tt_grad_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
