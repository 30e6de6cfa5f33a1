/* trunc_grad: X@GRAD = 0 (phi TruncGradKernel; reads only Out@GRAD's shape). */
#include "kernels/cpu/activation_grad.h"

IC_ACTGRAD_RUN(trunc_grad, ic_noattrs, 0, zero_grad_f32, zero_grad_f64)

const ic_opdef ic_op_trunc_grad =
    IC_ACTGRAD_DEF(trunc_grad, ic_noattrs, NULL, ic_actgrad_inputs_none);
