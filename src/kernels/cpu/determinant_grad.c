/* determinant_grad: for Out = det(Input) per matrix of the last two dims (determinant),
 * Input@GRAD = Out@GRAD Out Input^-T (phi DeterminantGradKernel), in double, rounded once.
 * As Paddle, when any determinant in Out is 0 the whole gradient is 0. Inputs Input
 * ([.., n, n]), Out, Out@GRAD (the batch dims: [..], [] or [1] for one matrix); float32 and
 * float64. The arithmetic is detgrad.h's, shared with slogdeterminant_grad. */
#include "kernels/cpu/detgrad.h"

const ic_slotdef ic_detgrad_inputs[3] = {{"Input", 0}, {"Out", 0}, {"Out@GRAD", 0}};
const ic_slotdef ic_detgrad_outputs[1] = {{"Input@GRAD", 0}};

static ic_status infer(ic_kctx *c) { return ic_detgrad_infer(c, false); }
static ic_status run(ic_kctx *c) { return ic_detgrad_run(c, false); }

const ic_opdef ic_op_determinant_grad = {
    .name = "determinant_grad", .n_inputs = 3, .inputs = ic_detgrad_inputs, .n_outputs = 1,
    .outputs = ic_detgrad_outputs, .infer = infer, .cpu = run,
};
