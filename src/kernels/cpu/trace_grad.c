/* trace_grad: Input@GRAD = zeros of Input's dims with each Out@GRAD element written along the
 * diagonal `offset` of its matrix (axis1, axis2) (phi TraceGradKernel); the walk is
 * diagonal_grad's (diagonal_grad.c). Inputs Input (meta only), Out@GRAD (Input's other dims,
 * or one element when there are none); attributes offset, axis1, axis2. Float32, float64. */
#include "kernels/cpu/diagonal.h"

static ic_status infer(ic_kctx *c) { return ic_diag_grad_infer(c, true); }
static ic_status run(ic_kctx *c) { return ic_diag_grad_run(c, true); }

const ic_opdef ic_op_trace_grad = {
    .name = "trace_grad", .n_inputs = 2, .inputs = ic_diag_grad_inputs, .n_outputs = 1,
    .outputs = ic_diag_grad_outputs, .attrs_size = sizeof(diagonal_attrs),
    .parse = ic_diagonal_parse, .infer = infer, .cpu = run,
};
