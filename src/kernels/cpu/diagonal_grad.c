/* diagonal_grad (and trace_grad, trace_grad.c, through ic_diag_grad_*): Input@GRAD = zeros of
 * Input's dims with Out@GRAD put on (diagonal) or broadcast along (trace) the diagonal `offset` of
 * the matrices spanned by axis1 and axis2 (phi DiagonalGradKernel, TraceGradKernel). Inputs Input
 * (meta only), Out@GRAD (diagonal: Input's other dims then the diagonal's length; trace: Input's
 * other dims, or one element when there are none); attributes offset, axis1, axis2 (negative from
 * the end). Float32 and float64. */
#include "kernels/cpu/diagonal.h"
#include "kernels/cpu/kgrad.h"

const ic_slotdef ic_diag_grad_inputs[2] = {{"Input", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
const ic_slotdef ic_diag_grad_outputs[1] = {{"Input@GRAD", 0}};

ic_status ic_diag_grad_infer(ic_kctx *c, bool trace) {
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_FLOAT);
  if (st) return st;
  diag_plan p;
  if ((st = ic_diagonal_plan(c, &p))) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  if (trace) {
    if (ic_numel(p.n, p.dims) != ic_tensor_numel_(g) ||
        (g->ndim != 0 && !(p.n == 0 && g->ndim == 1) &&
         !ic_dims_equal(g->ndim, g->dims, p.n, p.dims))) {
      char s[128];
      return ic_kfail_in(c, 1, 0, "expected dims %s (trace's Out)",
                         ic_dims_str(p.n, p.dims, s, sizeof s));
    }
  } else {
    p.dims[p.n] = p.len;
    if ((st = kg_expect(c, 1, g->dtype, p.n + 1, p.dims, "diagonal's Out"))) return st;
  }
  kg_out(c, 0, g->dtype, x->ndim, x->dims);
  return IC_OK;
}

ic_status ic_diag_grad_run(ic_kctx *c, bool trace) {
  diag_plan p;
  ic_status st = ic_diagonal_plan(c, &p);
  if (st) return st;
  const ic_tensor *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  kg_zero(dx);
  int64_t outer = ic_numel(p.n, p.dims), idx[IC_MAX_RANK] = {0}, off = 0;
  for (int64_t r = 0; r < outer; r++) {
    for (int64_t k = 0; k < p.len; k++)
      kg_put(dx, off + p.start + k * p.step, kg_get(g, trace ? r : r * p.len + k));
    for (int j = p.n - 1; j >= 0; j--) {
      off += p.stride[j];
      if (++idx[j] < p.dims[j]) break;
      off -= idx[j] * p.stride[j];
      idx[j] = 0;
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) { return ic_diag_grad_infer(c, false); }
static ic_status run(ic_kctx *c) { return ic_diag_grad_run(c, false); }

const ic_opdef ic_op_diagonal_grad = {
    .name = "diagonal_grad", .n_inputs = 2, .inputs = ic_diag_grad_inputs, .n_outputs = 1,
    .outputs = ic_diag_grad_outputs, .attrs_size = sizeof(diagonal_attrs),
    .parse = ic_diagonal_parse, .infer = infer, .cpu = run,
};
