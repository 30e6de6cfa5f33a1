/* slogdeterminant_grad: for Out = [sign, log|det|] of each matrix of Input's last two dims
 * (slogdeterminant: Out [2, batch..]), Input@GRAD = Out@GRAD[1] Input^-T, the log-magnitude's
 * gradient; the sign has none (phi SlogDeterminantGradKernel), in double, rounded once. When
 * any matrix is singular (a sign of 0 in Out) the whole gradient is NaN, as Paddle fills it.
 * Inputs Input ([.., n, n]), Out, Out@GRAD ([2, ..]); float32 and float64. The arithmetic is
 * detgrad.h's, shared with determinant_grad. */
#include "kernels/cpu/detgrad.h"

static ic_status infer(ic_kctx *c) { return ic_detgrad_infer(c, true); }
static ic_status run(ic_kctx *c) { return ic_detgrad_run(c, true); }

const ic_opdef ic_op_slogdeterminant_grad = {
    .name = "slogdeterminant_grad", .n_inputs = 3, .inputs = ic_detgrad_inputs, .n_outputs = 1,
    .outputs = ic_detgrad_outputs, .infer = infer, .cpu = run,
};
